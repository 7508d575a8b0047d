import { describe, expect, it } from 'vitest';
import { ConversionQueue, QueueTimeout } from './conversion-queue.js';

/** A conversion the test finishes by hand, counting how many ever started. */
function gate() {
  const started: string[] = [];
  const finishers: (() => void)[] = [];
  const run = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.push(() => resolve(name));
    });
  const finishOne = async () => {
    finishers.shift()!();
    // Let the queue hand the freed slot on (promise callbacks only, no timers).
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { started, run, finishOne };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
const never = () => undefined;

describe('WebVTT conversion queue', () => {
  it('runs at most 2 per stream and 4 over all streams; the rest start as slots free', async () => {
    const queue = new ConversionQueue(2, 4);
    const g = gate();
    const results = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1', 'c2'].map((name) =>
      queue.add(name[0]!, g.run(name)).wait(60_000, never),
    );
    await settle();
    expect(g.started).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(queue.active).toBe(4);
    await g.finishOne(); // a1 ends: a3 takes its slot, the c ones still wait (4 running again)
    expect(g.started).toEqual(['a1', 'a2', 'b1', 'b2', 'a3']);
    while (g.started.length < 7 || queue.active > 0) await g.finishOne();
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'c1', 'c2']);
  });

  it('shares one run between the requests for it', async () => {
    const queue = new ConversionQueue(1, 1);
    const g = gate();
    const shared = queue.add('s', g.run('x'));
    const waits = [shared.wait(60_000, never), shared.wait(60_000, never)];
    await settle();
    await g.finishOne();
    expect(await Promise.all(waits)).toEqual(['x', 'x']);
    expect(g.started).toEqual(['x']);
  });

  it('a request in line gives up with QueueTimeout when its client leaves or its wait runs out, and a conversion nobody waits for never runs', async () => {
    const queue = new ConversionQueue(1, 1);
    const g = gate();
    const first = queue.add('s', g.run('first')).wait(60_000, never);
    let leave!: () => void;
    const leaving = queue.add('s', g.run('left')).wait(60_000, (cancel) => (leave = cancel));
    const timed = queue.add('s', g.run('timed')).wait(1, never);
    await expect(timed).rejects.toBeInstanceOf(QueueTimeout);
    leave();
    await expect(leaving).rejects.toBeInstanceOf(QueueTimeout);
    await settle();
    await g.finishOne();
    expect(await first).toBe('first');
    await settle();
    expect(g.started).toEqual(['first']);
    expect(queue.active).toBe(0);
  });
});
