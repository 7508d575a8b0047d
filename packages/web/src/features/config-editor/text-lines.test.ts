import { describe, expect, it } from 'vitest';
import { gutterText, lineCount, lineRange } from './text-lines.js';

describe('text lines of the config editor', () => {
  const text = 'http 80;\nstream a {\n  url x;\n}\n';

  it('finds a line by its number, without its line break', () => {
    const at = lineRange(text, 3)!;
    expect(text.slice(at.start, at.end)).toBe('  url x;');
    expect(lineRange(text, 5)).toEqual({ start: text.length, end: text.length });
    expect(lineRange(text, 6)).toBeUndefined();
    expect(lineRange(text, 0)).toBeUndefined();
  });

  it('counts the lines the textarea shows and numbers them', () => {
    expect(lineCount(text)).toBe(5);
    expect(lineCount('')).toBe(1);
    expect(gutterText(3)).toBe('1\n2\n3');
  });
});
