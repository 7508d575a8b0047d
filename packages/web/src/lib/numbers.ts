/**
 * Number fields (spec 000 §5): unit inputs accept digits only and an empty value gives null;
 * integer fields turn non-digit text into null.
 */

/** What a digits-only input keeps of typed or pasted text. */
export function digitsOnly(text: string): string {
  return text.replace(/\D+/g, '');
}

/** A base-10 integer, or null for empty or non-digit text. */
export function parseInteger(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number.parseInt(trimmed, 10);
  return Number.isSafeInteger(value) ? value : null;
}
