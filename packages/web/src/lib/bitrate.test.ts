import { describe, expect, it } from 'vitest';
import { formatBitrate } from './bitrate.js';

describe('formatBitrate', () => {
  it('shows kbit/s under a megabit and Mbit/s (1024 kbit) from there', () => {
    expect(formatBitrate(undefined)).toBe('');
    expect(formatBitrate(0)).toBe('0 kbit/s');
    expect(formatBitrate(377.6)).toBe('378 kbit/s');
    expect(formatBitrate(1023)).toBe('1023 kbit/s');
    expect(formatBitrate(1024)).toBe('1.0 Mbit/s');
    expect(formatBitrate(2500)).toBe('2.4 Mbit/s');
  });
});
