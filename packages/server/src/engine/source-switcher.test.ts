import type { SourceEntry } from '@sluice/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SourceSwitcher, type SwitcherOptions } from './source-switcher.js';
import type { SourceEvents } from './sources/source.js';

/** Sources that deliver only when a test says so. */
class FakeSources {
  readonly running = new Map<string, SourceEvents>();
  readonly started: string[] = [];

  open = (entry: SourceEntry, _timeoutMs: number, events: SourceEvents) => ({
    start: () => {
      this.started.push(entry.url);
      this.running.set(entry.url, events);
    },
    stop: async () => {
      this.running.delete(entry.url);
    },
  });

  send(url: string, bytes = 188 * 100): void {
    this.running.get(url)?.data(Buffer.alloc(bytes, 0x47));
  }
}

function setup(
  urls: string[],
  timeoutSeconds = 2,
  watchProbe?: SwitcherOptions['watchProbe'],
  backup?: string,
) {
  const sources = new FakeSources();
  const delivered: Buffer[] = [];
  const switches: string[] = [];
  const errors: string[] = [];
  const switcher = new SourceSwitcher({
    entries: urls.map((url) => ({ url })),
    timeoutSeconds,
    open: sources.open,
    onData: (chunk) => delivered.push(chunk),
    onSwitch: (url, reason) => switches.push(`${url}: ${reason}`),
    onError: (message) => errors.push(message),
    onLog: () => undefined,
    watchProbe,
    ...(backup ? { backup: { url: backup } } : {}),
  });
  return { sources, switcher, delivered, switches, errors };
}

/** Advances the clock, with the active source(s) sending every 100 ms. */
function run(ms: number, sources: FakeSources, sending: string[]): void {
  for (let t = 0; t < ms; t += 100) {
    for (const url of sending) sources.send(url);
    vi.advanceTimersByTime(100);
  }
}

describe('SourceSwitcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails over to the next source after the timeout, and back when the first returns', async () => {
    const { sources, switcher, delivered, switches, errors } = setup(['udp://a', 'udp://b']);
    switcher.start();
    run(1000, sources, ['udp://a']);
    expect(delivered.length).toBe(10);
    // a goes silent: after 2 s the switcher moves to b.
    run(2400, sources, []);
    expect(switcher.activeUrl).toBe('udp://b');
    expect(errors).toEqual(['udp://a: no data for 2 s']);
    run(3000, sources, ['udp://b']);
    expect(switcher.activeUrl).toBe('udp://b');
    // a is probed again and again; once it sends, it takes over.
    run(1000, sources, ['udp://a', 'udp://b']);
    expect(switcher.activeUrl).toBe('udp://a');
    expect(switches).toEqual([
      'udp://a: start',
      'udp://b: udp://a timed out',
      'udp://a: a better source is back',
    ]);
    expect(sources.running.has('udp://b')).toBe(false);
    await switcher.stop();
    expect(sources.running.size).toBe(0);
  });

  it('restarts a single source after a timeout, counting each as an error', () => {
    const { sources, switcher, errors } = setup(['rtmp://x']);
    switcher.start();
    run(5000, sources, []);
    expect(errors.length).toBe(2);
    expect(sources.started).toEqual(['rtmp://x', 'rtmp://x', 'rtmp://x']);
  });

  it('stays on a source chosen by hand until it dies', () => {
    const { sources, switcher } = setup(['udp://a', 'udp://b']);
    switcher.start();
    expect(switcher.switchTo('udp://b')).toBe(true);
    run(5000, sources, ['udp://a', 'udp://b']);
    expect(switcher.activeUrl).toBe('udp://b');
    expect(switcher.switchTo('udp://none')).toBe(false);
  });

  it('passes on only the active source data', () => {
    const { sources, switcher, delivered } = setup(['udp://a', 'udp://b']);
    switcher.start();
    sources.send('udp://b');
    expect(delivered).toEqual([]);
    switcher.restart();
    expect(switcher.activeUrl).toBe('udp://a');
  });

  it('moves back to a better source at its first keyframe, handing over what it sent from its start', () => {
    // The watch sees a keyframe in a chunk whose first byte is 0x4b ("K").
    const watchProbe = () => ({ push: (chunk: Buffer) => chunk[0] === 0x4b });
    const { sources, switcher, delivered, switches } = setup(['udp://a', 'udp://b'], 2, watchProbe);
    switcher.start();
    run(2500, sources, []);
    expect(switcher.activeUrl).toBe('udp://b');
    run(2500, sources, ['udp://b']);
    // a is probed and sends, with no keyframe yet: b stays on air.
    run(1000, sources, ['udp://a', 'udp://b']);
    expect(switcher.activeUrl).toBe('udp://b');
    const before = delivered.length;
    sources.running.get('udp://a')!.data(Buffer.alloc(188, 0x4b));
    expect(switcher.activeUrl).toBe('udp://a');
    expect(switches.at(-1)).toBe('udp://a: a better source is back');
    // Everything a sent while probed reaches the bus after the switch, oldest first, keyframe last.
    const handed = delivered.slice(before);
    expect(handed.length).toBe(11);
    expect(handed.at(-1)![0]).toBe(0x4b);
  });

  it('moves back to a source without keyframes it can tell once it sent for its timeout', () => {
    const { sources, switcher } = setup(['udp://a', 'udp://b'], 2, () => ({ push: () => false }));
    switcher.start();
    run(2500, sources, []);
    run(2500, sources, ['udp://b']);
    run(1000, sources, ['udp://a', 'udp://b']);
    expect(switcher.activeUrl).toBe('udp://b');
    run(1500, sources, ['udp://a', 'udp://b']);
    expect(switcher.activeUrl).toBe('udp://a');
  });

  it('plays the backup once every source timed out, and leaves it when a source is back', () => {
    const { sources, switcher, switches } = setup(['udp://a', 'udp://b'], 2, undefined, 'file:///slate.mp4');
    switcher.start();
    run(2500, sources, []);
    expect(switcher.activeUrl).toBe('udp://b');
    expect(switcher.onBackup).toBe(false);
    run(2500, sources, []);
    expect(switcher.activeUrl).toBe('file:///slate.mp4');
    expect(switcher.onBackup).toBe(false);
    run(2000, sources, ['file:///slate.mp4']);
    expect(switcher.onBackup).toBe(true);
    // b is probed in its turn; once it sends, it takes over from the backup.
    run(3000, sources, ['file:///slate.mp4', 'udp://b']);
    expect(switcher.activeUrl).toBe('udp://b');
    expect(switcher.onBackup).toBe(false);
    expect(switches).toContain('file:///slate.mp4: every source is down: playing the backup');
  });

  it('hands a silent backup back to the sources, one attempt per timeout', () => {
    const { sources, switcher, errors } = setup(['udp://a'], 2, undefined, 'file:///missing.mp4');
    switcher.start();
    run(10_000, sources, []);
    // a, backup, a, backup, a: one attempt each 2 s, no storm.
    expect(sources.started.filter((u) => u === 'file:///missing.mp4').length).toBe(2);
    expect(errors.length).toBeLessThanOrEqual(5);
  });
});
