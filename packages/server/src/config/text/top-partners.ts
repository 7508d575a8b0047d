import type { Ann } from './codec/spec.js';

/** Old partners by key, -1 for none. Most items keep their place: the old one at the same offset is tried first. */
export function partnersByKey(
  keys: readonly (string | undefined)[],
  olds: readonly number[],
  anns: readonly Ann[],
) {
  const out = new Array<number>(keys.length);
  let index: Map<string | undefined, number> | undefined;
  let offset = 0;
  for (let j = 0; j < keys.length; j++) {
    const guess = olds[j + offset];
    if (guess !== undefined && (anns[guess] as Ann).key === keys[j]) {
      out[j] = guess;
      continue;
    }
    if (!index) {
      index = new Map();
      for (let k = 0; k < olds.length; k++) index.set((anns[olds[k] as number] as Ann).key, k);
    }
    const k = index.get(keys[j]);
    out[j] = k === undefined ? -1 : (olds[k] as number);
    if (k !== undefined) offset = k - j;
  }
  return out;
}
