import { describe, expect, it } from 'vitest';
import { formatRate, formatTraffic } from './traffic.js';

describe('formatRate', () => {
  it('shows 3 decimals under 10 and an integer from 10 up', () => {
    expect(formatRate(0)).toBe('0.000');
    expect(formatRate(9.9994)).toBe('9.999');
    expect(formatRate(10)).toBe('10');
    expect(formatRate(123.6)).toBe('124');
  });
});

describe('formatTraffic', () => {
  it('shows megabits while both directions are under 1 Gbps', () => {
    expect(formatTraffic(2048, 512)).toEqual({ input: '2.000 Mbps', output: '0.500 Mbps' });
    expect(formatTraffic(1024 * 1023, 0)).toEqual({ input: '1023 Mbps', output: '0.000 Mbps' });
  });

  it('switches both directions to Gbps when either reaches 1 Gbps', () => {
    expect(formatTraffic(1024, 1024 * 1024)).toEqual({ input: '0.001 Gbps', output: '1.000 Gbps' });
    expect(formatTraffic(1024 * 1024 * 12, 0)).toEqual({ input: '12 Gbps', output: '0.000 Gbps' });
  });
});
