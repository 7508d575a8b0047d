import type { SourceEntry, Stream } from '@sluice/api';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SourceSwitcher } from './source-switcher.js';
import { streamSpec } from './stream-spec.js';
import type { SourceEvents } from './sources/source.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A switcher over `entries` whose sources only record their events; errors collected. */
function recordingSwitcher(entries: SourceEntry[], timeoutSeconds: number) {
  const running = new Map<string, SourceEvents>();
  const errors: string[] = [];
  const switcher = new SourceSwitcher({
    entries,
    timeoutSeconds,
    open: (entry, _timeoutMs, events) => ({
      start: () => void running.set(entry.url, events),
      stop: async () => void running.delete(entry.url),
    }),
    onData: () => undefined,
    onSwitch: () => undefined,
    onError: (message) => errors.push(message),
    onLog: () => undefined,
  });
  return { running, errors, switcher };
}

// The field review (test/field-review) names this test for a source entry's own source_timeout.
it("a source's own source_timeout wins over the stream's", async () => {
  const { running, errors, switcher } = recordingSwitcher(
    [{ url: 'udp://a', source_timeout: 5 }, { url: 'udp://b' }] as SourceEntry[],
    2,
  );
  switcher.start();
  running.get('udp://a')?.data(Buffer.alloc(188, 0x47));
  // Silent past the stream's 2 s: a keeps its place, as its own timeout is 5 s.
  vi.advanceTimersByTime(3000);
  expect(switcher.activeUrl).toBe('udp://a');
  vi.advanceTimersByTime(2500);
  expect(switcher.activeUrl).toBe('udp://b');
  expect(errors).toEqual(['udp://a: no data for 5 s']);
  await switcher.stop();
});

// The field review names this test for a stream's (and a location's) source_timeout.
it("the stream's source_timeout (2 s here, not the default 10 s) moves a silent source to the next url", async () => {
  const spec = streamSpec('tv', {
    source_timeout: 2,
    urls: [{ url: 'udp://a' }, { url: 'udp://b' }],
  } as Stream);
  const { running, errors, switcher } = recordingSwitcher(spec.sources, spec.sourceTimeoutSeconds);
  switcher.start();
  running.get('udp://a')?.data(Buffer.alloc(188, 0x47));
  vi.advanceTimersByTime(1500);
  expect(switcher.activeUrl).toBe('udp://a');
  vi.advanceTimersByTime(1000);
  expect(switcher.activeUrl).toBe('udp://b');
  expect(errors).toEqual(['udp://a: no data for 2 s']);
  await switcher.stop();
});
