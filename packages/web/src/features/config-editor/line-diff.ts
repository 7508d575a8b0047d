/** One line of a unified diff: kept in both, only in mine ('-'), or only in theirs ('+'). */
export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/** Above this many line pairs the table would be too large to build in a tab: compare as blocks. */
const MAX_CELLS = 4_000_000;

/**
 * Mine vs theirs line by line (longest common subsequence), for the config editor's Compare:
 * common head and tail are cut first, so a config of thousands of lines with a few changes costs
 * little. Texts too different to compare cheaply show as all of mine removed, all of theirs added.
 */
export function lineDiff(mine: string, theirs: string): DiffLine[] {
  const a = mine.split('\n');
  const b = theirs.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const same = (lines: string[]) => lines.map((text): DiffLine => ({ kind: ' ', text }));
  const middle =
    x.length * y.length > MAX_CELLS
      ? [
          ...x.map((text): DiffLine => ({ kind: '-', text })),
          ...y.map((text): DiffLine => ({ kind: '+', text })),
        ]
      : lcsDiff(x, y);
  return [...same(a.slice(0, head)), ...middle, ...same(a.slice(a.length - tail))];
}

function lcsDiff(x: string[], y: string[]): DiffLine[] {
  const width = y.length + 1;
  // lengths[i * width + j]: the common subsequence length of x[i..] and y[j..].
  const lengths = new Uint32Array((x.length + 1) * width);
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        x[i] === y[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      out.push({ kind: ' ', text: x[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)
      out.push({ kind: '-', text: x[i++]! });
    else out.push({ kind: '+', text: y[j++]! });
  }
  while (i < x.length) out.push({ kind: '-', text: x[i++]! });
  while (j < y.length) out.push({ kind: '+', text: y[j++]! });
  return out;
}
