import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIST_LOADING_NOTICE_MS } from './browser-constants.js';
import { delayedFlag } from './delayed-flag.js';

describe('the file list loading notice (spec 002 §2: after 300 ms)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const watch = () => {
    const shown: boolean[] = [];
    return { shown, flag: delayedFlag(LIST_LOADING_NOTICE_MS, (on) => shown.push(on)) };
  };

  it('shows once a load has taken 300 ms and hides when it ends', () => {
    const { shown, flag } = watch();
    flag.start();
    vi.advanceTimersByTime(299);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([true]);
    flag.stop();
    expect(shown).toEqual([true, false]);
  });

  it('never shows for a load under 300 ms', () => {
    const { shown, flag } = watch();
    flag.start();
    vi.advanceTimersByTime(250);
    flag.stop();
    vi.advanceTimersByTime(1000);
    expect(shown).toEqual([]);
  });

  it('counts 300 ms from the start of a load, not from later reminders that it still loads', () => {
    const { shown, flag } = watch();
    flag.start();
    vi.advanceTimersByTime(200);
    flag.start();
    vi.advanceTimersByTime(100);
    expect(shown).toEqual([true]);
  });
});
