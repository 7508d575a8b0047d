import { describe, expect, it } from 'vitest';
import { formatNameList, parseNameList } from './name-list.js';

describe('mirror name lists (spec 001 §2: separated by comma or space)', () => {
  it('splits on commas and spaces, dropping empty entries and repeats', () => {
    expect(parseNameList('a, b  c,d,,e')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(parseNameList(' cam/1\ncam/2 ')).toEqual(['cam/1', 'cam/2']);
    expect(parseNameList('a a b')).toEqual(['a', 'b']);
  });

  it('gives null for an empty list, which removes the key', () => {
    expect(parseNameList('')).toBeNull();
    expect(parseNameList(' , ,')).toBeNull();
  });

  it('keeps other characters in names', () => {
    expect(parseNameList('a;b')).toEqual(['a;b']);
  });

  it('shows a list comma-separated, and nothing for none', () => {
    expect(formatNameList(['a', 'b'])).toBe('a, b');
    expect(formatNameList(undefined)).toBe('');
    expect(parseNameList(formatNameList(['x', 'y']))).toEqual(['x', 'y']);
  });
});
