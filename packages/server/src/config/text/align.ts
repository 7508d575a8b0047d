/**
 * Pairs the old directives of a group with the new ones: equal texts first (a longest common
 * subsequence, so that an insertion or a deletion shifts nothing), then the leftovers between two
 * matches in order (a changed directive keeps the comments of the one it replaces). Returns, for
 * each new index, the old index it continues, if any. `undefined` old texts never match.
 */
export function align(
  oldTexts: readonly (string | undefined)[],
  newTexts: readonly string[],
): (number | undefined)[] {
  const m = oldTexts.length;
  const n = newTexts.length;
  const matches: [number, number][] = [];
  let head = 0;
  while (head < m && head < n && oldTexts[head] !== undefined && oldTexts[head] === newTexts[head]) {
    matches.push([head, head]);
    head++;
  }
  let tail = 0;
  while (
    tail < m - head &&
    tail < n - head &&
    oldTexts[m - 1 - tail] !== undefined &&
    oldTexts[m - 1 - tail] === newTexts[n - 1 - tail]
  )
    tail++;
  matches.push(
    ...common(oldTexts.slice(head, m - tail), newTexts.slice(head, n - tail)).map(
      ([o, k]): [number, number] => [o + head, k + head],
    ),
  );
  for (let k = 0; k < tail; k++) matches.push([m - tail + k, n - tail + k]);

  const result: (number | undefined)[] = new Array<number | undefined>(n).fill(undefined);
  let prevOld = -1;
  let prevNew = -1;
  for (const [o, k] of [...matches, [m, n] as [number, number]]) {
    for (let g = 1; prevOld + g < o && prevNew + g < k; g++) result[prevNew + g] = prevOld + g;
    if (k < n) result[k] = o;
    prevOld = o;
    prevNew = k;
  }
  return result;
}

/** Matching index pairs, increasing in both: exact LCS when small, greedy in order when large. */
function common(a: readonly (string | undefined)[], b: readonly string[]): [number, number][] {
  if (a.length === 0 || b.length === 0) return [];
  if (a.length * b.length > 1_000_000) return greedy(a, b);
  const w = b.length + 1;
  const table = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * w + j] =
        a[i] !== undefined && a[i] === b[j]
          ? (table[(i + 1) * w + j + 1] as number) + 1
          : Math.max(table[(i + 1) * w + j] as number, table[i * w + j + 1] as number);
    }
  }
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] !== undefined && a[i] === b[j]) out.push([i++, j++]);
    else if ((table[(i + 1) * w + j] as number) >= (table[i * w + j + 1] as number)) i++;
    else j++;
  }
  return out;
}

function greedy(a: readonly (string | undefined)[], b: readonly string[]): [number, number][] {
  const at = new Map<string, { list: number[]; next: number }>();
  a.forEach((t, i) => {
    if (t === undefined) return;
    const slot = at.get(t);
    if (slot) slot.list.push(i);
    else at.set(t, { list: [i], next: 0 });
  });
  const out: [number, number][] = [];
  let last = -1;
  b.forEach((t, j) => {
    const slot = at.get(t);
    if (!slot) return;
    // `last` only grows, so each list is walked once over the whole run.
    while (slot.next < slot.list.length && (slot.list[slot.next] as number) <= last) slot.next++;
    const i = slot.list[slot.next];
    if (i === undefined) return;
    out.push([i, j]);
    slot.next++;
    last = i;
  });
  return out;
}
