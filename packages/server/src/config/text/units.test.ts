import { describe, expect, it } from 'vitest';
import { formatWithUnit, parseWithUnit } from './units.js';

describe('units', () => {
  it('reads durations in s, m, h, d, w', () => {
    expect(['30', '30s', '2m', '1.5h', '2d', '1w'].map((t) => parseWithUnit(t, 'duration'))).toEqual([
      30, 30, 120, 5400, 172800, 604800,
    ]);
    expect(parseWithUnit('2M', 'duration')).toBeUndefined();
  });

  it('reads binary sizes in k, m, g, t, in either case', () => {
    expect(['512', '1k', '10m', '2G', '1t'].map((t) => parseWithUnit(t, 'size'))).toEqual([
      512,
      1024,
      10 * 1024 ** 2,
      2 * 1024 ** 3,
      1024 ** 4,
    ]);
  });

  it('reads percents', () => {
    expect(['90%', '90', '12.5%'].map((t) => parseWithUnit(t, 'percent'))).toEqual([90, 90, 12.5]);
    expect(parseWithUnit('x%', 'percent')).toBeUndefined();
  });

  it('writes the largest unit that divides exactly, and reads it back', () => {
    const cases: [number, 'duration' | 'size' | 'percent', string][] = [
      [172800, 'duration', '2d'],
      [5400, 'duration', '90m'],
      [90, 'duration', '90s'],
      [1.5, 'duration', '1.5s'],
      [0, 'duration', '0'],
      [10 * 1024 ** 3, 'size', '10g'],
      [1000, 'size', '1000'],
      [90, 'percent', '90%'],
    ];
    for (const [value, unit, text] of cases) {
      expect(formatWithUnit(value, unit)).toBe(text);
      expect(parseWithUnit(text, unit)).toBe(value);
    }
  });
});
