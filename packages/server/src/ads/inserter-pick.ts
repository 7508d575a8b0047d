/**
 * The ads of one slot: drawn by weight (a file of weight 2 comes twice as often as one of weight 1),
 * one after another until they fill `slotMs`. At least one; a file of weight 0 or less is never drawn
 * unless all are.
 */
export function pickByWeight<T extends { durationMs: number }>(
  files: readonly { weight: number; file: T }[],
  slotMs: number,
  random: () => number = Math.random,
): T[] {
  const weighted = files.filter((f) => f.weight > 0);
  const pool = weighted.length > 0 ? weighted : files.map((f) => ({ ...f, weight: 1 }));
  const total = pool.reduce((sum, f) => sum + f.weight, 0);
  const picked: T[] = [];
  let filledMs = 0;
  // Bounded: a slot of hours filled with one-second files is still a few thousand draws.
  while ((picked.length === 0 || filledMs < slotMs) && picked.length < 10_000 && pool.length > 0) {
    let at = random() * total;
    const choice = pool.find((f) => (at -= f.weight) < 0) ?? pool[pool.length - 1]!;
    picked.push(choice.file);
    filledMs += Math.max(choice.file.durationMs, 1000);
  }
  return picked;
}
