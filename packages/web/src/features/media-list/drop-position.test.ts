import { describe, expect, it } from 'vitest';
import { dropPosition, PLACEHOLDER, slotAt, withPlaceholder } from './drop-position.js';

describe('drag reorder', () => {
  it('shows the placeholder where the dragged stream would land', () => {
    expect(withPlaceholder(['a', 'b', 'c', 'd'], 'b', 2)).toEqual(['a', 'c', PLACEHOLDER, 'd']);
    expect(withPlaceholder(['a', 'b', 'c'], 'c', 0)).toEqual([PLACEHOLDER, 'a', 'b']);
    expect(withPlaceholder(['a', 'b'], 'a', 9)).toEqual(['b', PLACEHOLDER]);
    // Dropped and saving: the stream shows where it was dropped.
    expect(withPlaceholder(['a', 'b', 'c'], 'a', 1, 'a')).toEqual(['b', 'a', 'c']);
    // A stream filtered out of the list leaves it as it is.
    expect(withPlaceholder(['a', 'b'], 'x', 0)).toEqual(['a', 'b']);
  });

  it('finds the slot from the pointer height, within the list', () => {
    expect(slotAt(0, 40, 5)).toBe(0);
    expect(slotAt(79, 40, 5)).toBe(1);
    expect(slotAt(80, 40, 5)).toBe(2);
    expect(slotAt(-10, 40, 5)).toBe(0);
    expect(slotAt(10_000, 40, 5)).toBe(4);
  });

  it('saves the position counted without the moved stream, up or down', () => {
    // a b c d e (0..4): c dropped above b → 1; b dropped above e → 3; a dropped last → 4.
    expect(dropPosition(2, 0, 1)).toBe(1);
    expect(dropPosition(1, 3, 4)).toBe(3);
    expect(dropPosition(0, 4, undefined)).toBe(4);
    expect(dropPosition(4, undefined, 0)).toBe(0);
    // In a filtered list showing positions 3, 7 and 9: the stream at 9 dropped between 3 and 7.
    expect(dropPosition(9, 3, 7)).toBe(7);
    // The stream at 3 dropped after 9, the last one shown.
    expect(dropPosition(3, 9, undefined)).toBe(9);
  });
});
