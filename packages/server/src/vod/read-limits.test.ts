import { describe, expect, it } from 'vitest';
import { ReadLimits } from './read-limits.js';

/** A task that runs until `finish()` is called, recording how many ran at once. */
function tasks() {
  let running = 0;
  let peak = 0;
  const finishers: (() => void)[] = [];
  const task = () =>
    new Promise<number>((resolve) => {
      running++;
      peak = Math.max(peak, running);
      finishers.push(() => {
        running--;
        resolve(peak);
      });
    });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { task, finishers, settle, peak: () => peak, running: () => running };
}

describe('ReadLimits', () => {
  it('holds one file to max_readers: the others wait their turn, in order', async () => {
    const limits = new ReadLimits();
    const t = tasks();
    const order: number[] = [];
    const reads = [0, 1, 2, 3].map((i) =>
      limits.run('vod', '/a.mp4', { maxReaders: 2 }, async () => {
        order.push(i);
        return t.task();
      }),
    );
    await t.settle();
    expect(t.running()).toBe(2);
    while (t.finishers.length > 0) {
      t.finishers.shift()!();
      await t.settle();
    }
    await Promise.all(reads);
    expect(t.peak()).toBe(2);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(limits.size).toBe(0);
  });

  it('holds a VOD to read_queue over all its files; other VODs and unset limits are free', async () => {
    const limits = new ReadLimits();
    const t = tasks();
    const reads = ['/a', '/b', '/c'].map((path) => limits.run('vod', path, { readQueue: 1 }, t.task));
    const other = limits.run('other', '/d', {}, t.task);
    await t.settle();
    expect(t.running()).toBe(2);
    while (t.finishers.length > 0) {
      t.finishers.shift()!();
      await t.settle();
    }
    await Promise.all([...reads, other]);
    expect(limits.size).toBe(0);
  });

  it('a failing read frees its place', async () => {
    const limits = new ReadLimits();
    const failed = limits.run('vod', '/a', { maxReaders: 1 }, () => Promise.reject(new Error('damaged')));
    await expect(failed).rejects.toThrow('damaged');
    await expect(limits.run('vod', '/a', { maxReaders: 1 }, () => Promise.resolve(7))).resolves.toBe(7);
    expect(limits.size).toBe(0);
  });
});
