/**
 * Units the text accepts for numeric settings whose JSON value is in seconds, bytes or percent:
 * `dvr /storage 2d 90%;` reads as dvr_limit 172800 and disk_limit 90. Sizes are binary (1k = 1024),
 * as in spec 000 §9. The JSON always holds the plain number; the text writes the largest unit that
 * divides it exactly, so `2d` stays `2d` after a round trip.
 */
export type Unit = 'duration' | 'size' | 'percent';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const DURATION: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const SIZE: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
const PERCENT: Record<string, number> = { '%': 1 };

/** Largest first: the writer picks the first that divides the value. `w` is read but not written. */
const DURATION_OUT: [string, number][] = [
  ['d', 86_400],
  ['h', 3600],
  ['m', 60],
];
const SIZE_OUT: [string, number][] = [
  ['t', 1024 ** 4],
  ['g', 1024 ** 3],
  ['m', 1024 ** 2],
  ['k', 1024],
];

/** A decimal number as a bare token may spell it; non-finite results are not numbers. */
export function parseNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export function parseWithUnit(text: string, unit: Unit): number | undefined {
  const plain = parseNumber(text);
  if (plain !== undefined) return plain;
  const table = unit === 'percent' ? PERCENT : unit === 'duration' ? DURATION : SIZE;
  // Size units are case-insensitive (10G = 10g); for durations `m` is minutes and `M` means nothing.
  const suffix = unit === 'size' ? text.slice(-1).toLowerCase() : text.slice(-1);
  const factor = Object.hasOwn(table, suffix) ? table[suffix] : undefined;
  if (factor === undefined) return undefined;
  const n = parseNumber(text.slice(0, -1));
  return n === undefined ? undefined : n * factor;
}

export function formatWithUnit(value: number, unit: Unit): string {
  if (unit === 'percent') return `${value}%`;
  // Only exact integer multiples get a unit, so that reading the text back gives the same number.
  if (Number.isSafeInteger(value) && value > 0) {
    for (const [suffix, factor] of unit === 'duration' ? DURATION_OUT : SIZE_OUT) {
      if (value % factor === 0) return `${value / factor}${suffix}`;
    }
  }
  return unit === 'duration' && value > 0 ? `${value}s` : String(value);
}
