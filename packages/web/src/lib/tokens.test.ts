import { describe, expect, it } from 'vitest';
import { joinTokens, parsePortList, splitTokens } from './tokens.js';

describe('splitTokens', () => {
  it('splits on commas, semicolons and whitespace', () => {
    expect(splitTokens('a, b;c  d\ne')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('gives null for an empty list', () => {
    expect(splitTokens('')).toBeNull();
    expect(splitTokens(' , ; ')).toBeNull();
  });

  it('joins back with commas', () => {
    expect(joinTokens(['a', 'b'])).toBe('a, b');
    expect(joinTokens(null)).toBe('');
  });
});

describe('parsePortList', () => {
  it('parses integers and drops non-numeric entries', () => {
    expect(parsePortList('80, 8080 x 443a 9000')).toEqual([80, 8080, 9000]);
  });

  it('gives null when nothing numeric is left', () => {
    expect(parsePortList('http')).toBeNull();
    expect(parsePortList('')).toBeNull();
  });
});
