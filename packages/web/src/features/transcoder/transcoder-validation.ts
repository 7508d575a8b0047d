import { BITRATE_FACTOR } from './transcoder-constants.js';

/** The Transcoder tab's messages and checks (spec 001 §5 "Transcoder"), from typed text to a value or a message. */
export const BITRATE_REQUIRED = 'Bitrate is required.';
export const GREATER_THAN_ZERO = 'Should be greater than zero.';
export const CROP_REQUIRED = 'Required, if crop set.';
export const ASPECT_REQUIRED = 'Required, if aspect set.';
export const multipleOfTwo = (label: 'Width' | 'Height') => `${label} should be multiple of 2.`;
export const minusOneOrPositive = (label: 'Width' | 'Height') =>
  `${label} should be -1 or greater than zero.`;

export type Parsed<T> = { value: T; error?: undefined } | { error: string };

/** What a signed decimal input keeps of typed text. */
export const numberChars = (text: string): string => text.replace(/[^\d.-]/g, '');

const asNumber = (text: string): number | undefined => {
  const trimmed = text.trim();
  return /^-?(\d+\.?\d*|\.\d+)$/.test(trimmed) ? Number(trimmed) : undefined;
};

/** A bitrate typed in K: required and above zero; stored in bits per second. */
export function parseBitrateK(text: string): Parsed<number> {
  if (text.trim() === '') return { error: BITRATE_REQUIRED };
  const k = asNumber(text);
  if (k === undefined || k <= 0) return { error: GREATER_THAN_ZERO };
  return { value: Math.round(k * BITRATE_FACTOR) };
}

export const formatBitrateK = (bps: number | undefined): string =>
  bps === undefined ? '' : String(bps / BITRATE_FACTOR);

/** An optional whole number above zero (decoder threads, frames in GOP, a crop edge); empty is null. */
export function parsePositive(text: string): Parsed<number | null> {
  if (text.trim() === '') return { value: null };
  const n = asNumber(text);
  return n === undefined || n <= 0 || !Number.isInteger(n) ? { error: GREATER_THAN_ZERO } : { value: n };
}

/** A width or height: empty, -1 or 0 is auto (null); otherwise even and above zero. */
export function parseDimension(text: string, label: 'Width' | 'Height'): Parsed<number | null> {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'auto') return { value: null };
  const n = asNumber(trimmed);
  if (n === -1 || n === 0) return { value: null };
  if (n === undefined || n < 0 || !Number.isInteger(n)) return { error: minusOneOrPositive(label) };
  if (n % 2 !== 0) return { error: multipleOfTwo(label) };
  return { value: n };
}

/**
 * A group of fields that go together (crop's four edges, aspect's x and y): each is a whole number
 * above zero, and once any is set all are required. All empty is null (the group removed).
 */
export function parseGroup<K extends string>(
  texts: Record<K, string>,
  requiredMessage: string,
): { value?: Record<K, number> | null; errors: Partial<Record<K, string>> } {
  const keys = Object.keys(texts) as K[];
  const anySet = keys.some((k) => texts[k].trim() !== '');
  const errors: Partial<Record<K, string>> = {};
  const value = {} as Record<K, number>;
  for (const key of keys) {
    const parsed = parsePositive(texts[key]);
    if (parsed.error !== undefined) errors[key] = parsed.error;
    else if (parsed.value === null) {
      if (anySet) errors[key] = requiredMessage;
    } else value[key] = parsed.value;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { value: anySet ? value : null, errors };
}
