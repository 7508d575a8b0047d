import { describe, expect, it } from 'vitest';
import { contrastRatio, readableOn } from './contrast.js';

describe('contrastRatio', () => {
  it('gives the WCAG figures: black on white 21, Mantine teal-6 on white 2.55', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#12b886')).toBeCloseTo(2.55, 2);
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });
});

describe('readableOn', () => {
  it('darkens a colour until it reads on every background, and no further', () => {
    const teal = readableOn('#12b886', ['#ffffff', '#c3fae8'], 4.5);
    expect(contrastRatio(teal, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(teal, '#c3fae8')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(teal, '#c3fae8')).toBeLessThan(5.2);
  });

  it('keeps a colour that already reads', () => {
    expect(readableOn('#212529', ['#ffffff'], 4.5)).toBe('#212529');
  });
});
