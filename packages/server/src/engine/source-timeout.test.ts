import type { SourceEntry } from '@sluice/api';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SourceSwitcher } from './source-switcher.js';
import type { SourceEvents } from './sources/source.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

// The field review (test/field-review) names this test for a source entry's own source_timeout.
it("a source's own source_timeout wins over the stream's", async () => {
  const running = new Map<string, SourceEvents>();
  const errors: string[] = [];
  const switcher = new SourceSwitcher({
    entries: [{ url: 'udp://a', source_timeout: 5 }, { url: 'udp://b' }] as SourceEntry[],
    timeoutSeconds: 2,
    open: (entry, _timeoutMs, events) => ({
      start: () => void running.set(entry.url, events),
      stop: async () => void running.delete(entry.url),
    }),
    onData: () => undefined,
    onSwitch: () => undefined,
    onError: (message) => errors.push(message),
    onLog: () => undefined,
  });
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
