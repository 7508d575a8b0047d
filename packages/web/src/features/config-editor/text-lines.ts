/** Where line `line` (1-based) of `text` starts and ends (before its line break), as offsets. */
export function lineRange(text: string, line: number): { start: number; end: number } | undefined {
  if (line < 1) return undefined;
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return undefined;
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return { start, end: end < 0 ? text.length : end };
}

/** How many lines the text shows (an empty text and a text ending in a line break included). */
export const lineCount = (text: string): number => {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
};

/** The gutter's text: "1\n2\n…\nN", one number per line of the text beside it. */
export function gutterText(lines: number): string {
  return Array.from({ length: lines }, (_, i) => String(i + 1)).join('\n');
}
