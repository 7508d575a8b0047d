/**
 * The typed values of the DVR tab (spec 001 §5): sizes and times as an operator writes them in the
 * config ("10g", "1h"), a percent and a port, each with the spec's message when the text is wrong.
 * Empty text is a valid "not set" (null).
 */
export type Parsed<T> = { value: T; error?: undefined } | { error: string };

export const SIZE_MESSAGE = "It's not correct size, good examples are 1024, 1Kb, 32gb, 50TB";
export const TIME_MESSAGE =
  'Time string should contains only digits and time unit at the end (s, m, h, d, w)';
export const PERCENT_MESSAGE = 'Disk limit is a percent from 0 to 100.';
export const PORT_MESSAGE = 'Replication port is 1 to 65535.';

/** Size formats are binary (spec 001 §9); a number without a unit is GiB (spec 001 §5). */
const SIZE_POWERS: Record<string, number> = { k: 1, m: 2, g: 3, t: 4, p: 5 };
const DEFAULT_SIZE_POWER = 3;
const SIZE_RE = /^(\d+)\s*(?:([kmgtp])i?b?|(b))?$/i;

/** Spec 001 §9: s=1, m=60, h=3600, d=86400, w=604800; a number without a unit is seconds. */
const TIME_FACTORS: [unit: string, seconds: number][] = [
  ['w', 604800],
  ['d', 86400],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
];
const TIME_RE = /^(\d+)\s*([smhdw])?$/i;

export function parseSize(text: string): Parsed<number | null> {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const match = SIZE_RE.exec(trimmed);
  if (!match) return { error: SIZE_MESSAGE };
  const [, digits = '', unit, bytesOnly] = match;
  const power = bytesOnly ? 0 : unit ? (SIZE_POWERS[unit.toLowerCase()] ?? 0) : DEFAULT_SIZE_POWER;
  const value = Number.parseInt(digits, 10) * 1024 ** power;
  return Number.isSafeInteger(value) ? { value } : { error: SIZE_MESSAGE };
}

/** Bytes in the largest binary unit that holds them whole: 10737418240 → "10G", 1500 → "1500b". */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  const units = Object.entries(SIZE_POWERS).reverse();
  for (const [unit, power] of units) {
    const factor = 1024 ** power;
    if (bytes !== 0 && bytes % factor === 0) return `${bytes / factor}${unit.toUpperCase()}`;
  }
  return `${bytes}b`;
}

export function parseTime(text: string): Parsed<number | null> {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const match = TIME_RE.exec(trimmed);
  if (!match) return { error: TIME_MESSAGE };
  const [, digits = '', unit = 's'] = match;
  const factor = TIME_FACTORS.find(([u]) => u === unit.toLowerCase())?.[1] ?? 1;
  return { value: Number.parseInt(digits, 10) * factor };
}

/** Seconds in the largest unit that holds them whole: 7200 → "2h", 90 → "90s". */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '';
  for (const [unit, factor] of TIME_FACTORS) {
    if (seconds !== 0 && seconds % factor === 0) return `${seconds / factor}${unit}`;
  }
  return `${seconds}s`;
}

const wholeNumber = (text: string): number | undefined =>
  /^\d+$/.test(text.trim()) ? Number.parseInt(text.trim(), 10) : undefined;

/** Spec 001 §5: the DVR disk limit is a percent from 0 to 100. */
export function parsePercent(text: string): Parsed<number | null> {
  if (text.trim() === '') return { value: null };
  const n = wholeNumber(text);
  return n === undefined || n > 100 ? { error: PERCENT_MESSAGE } : { value: n };
}

/** Spec 001 §5: the replication port is 1 to 65535. */
export function parsePort(text: string): Parsed<number | null> {
  if (text.trim() === '') return { value: null };
  const n = wholeNumber(text);
  return n === undefined || n < 1 || n > 65535 ? { error: PORT_MESSAGE } : { value: n };
}

export const formatNumber = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);
