import { describe, expect, it } from 'vitest';
import { amountIn, bitrateUnits, pickUnit, valueOf } from './units.js';

const [kbps, mbps, gbps] = bitrateUnits as [
  (typeof bitrateUnits)[0],
  (typeof bitrateUnits)[0],
  (typeof bitrateUnits)[0],
];

describe('unit inputs', () => {
  it('uses the factors of spec 000 §9', () => {
    expect(valueOf('1', kbps)).toBe(1024);
    expect(valueOf('1', mbps)).toBe(1048576);
    expect(valueOf('1', gbps)).toBe(1073741824);
  });

  it('accepts digits only and gives null for an empty value', () => {
    expect(valueOf('1a0', mbps)).toBe(10 * 1048576);
    expect(valueOf('', mbps)).toBeNull();
    expect(valueOf('abc', mbps)).toBeNull();
  });

  it('shows a value in the largest unit that divides it, the default when empty', () => {
    expect(pickUnit(undefined, bitrateUnits, mbps)).toBe(mbps);
    expect(pickUnit(2 * 1073741824, bitrateUnits, mbps)).toBe(gbps);
    expect(pickUnit(3 * 1048576, bitrateUnits, mbps)).toBe(mbps);
    expect(pickUnit(1536, bitrateUnits, mbps)).toBe(kbps);
    expect(pickUnit(1000, bitrateUnits, mbps)).toBe(kbps);
  });

  it('round-trips the amount shown', () => {
    expect(amountIn(5 * 1048576, mbps)).toBe('5');
    expect(amountIn(null, mbps)).toBe('');
    expect(valueOf(amountIn(7 * 1073741824, gbps), gbps)).toBe(7 * 1073741824);
  });
});
