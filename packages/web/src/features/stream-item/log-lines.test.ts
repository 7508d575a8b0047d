import { describe, expect, it } from 'vitest';
import { appendLines, LOG_MAX_ENTRIES, nearBottom } from './log-lines.js';

describe('log lines', () => {
  it('keeps the newest 1000 entries', () => {
    const many = Array.from({ length: LOG_MAX_ENTRIES }, (_, i) => String(i));
    const next = appendLines(many, ['new']);
    expect(next).toHaveLength(LOG_MAX_ENTRIES);
    expect(next[0]).toBe('1');
    expect(next.at(-1)).toBe('new');
  });

  it('sticks to the bottom within 100 px', () => {
    expect(nearBottom({ scrollHeight: 1000, scrollTop: 800, clientHeight: 100 })).toBe(true);
    expect(nearBottom({ scrollHeight: 1000, scrollTop: 799, clientHeight: 100 })).toBe(false);
  });
});
