/**
 * The key/value editor's rules (spec 001 §5): a key starts with a letter, then letters, digits and
 * underscores; a value must not contain #. Spec 001 §5 drops a leading digit typed into a key; issue
 * 17 found that swallowing keystrokes loses typing, so the digit stays and the key's message says why.
 */
export const KEY_ERROR = 'Key should start with character, not digit or special symbol.';
export const VALUE_ERROR = 'Value should not include # symbol.';
export const DUPLICATE_KEY_ERROR = 'This key is already used.';

export interface KeyValueRow {
  id: number;
  key: string;
  value: string;
}

export function keyError(key: string): string | undefined {
  return key === '' || /^[A-Za-z][A-Za-z0-9_]*$/.test(key) ? undefined : KEY_ERROR;
}

export function valueError(value: string): string | undefined {
  return value.includes('#') ? VALUE_ERROR : undefined;
}

export const isEmptyRow = (row: KeyValueRow) => row.key === '' && row.value === '';

/** The first problem of each row that has one, keyed by row id. */
export function rowErrors(rows: readonly KeyValueRow[]): Map<number, string> {
  const errors = new Map<number, string>();
  const seen = new Set<string>();
  for (const row of rows) {
    if (isEmptyRow(row)) continue;
    const problem =
      (row.key === '' ? KEY_ERROR : keyError(row.key)) ??
      valueError(row.value) ??
      (seen.has(row.key) ? DUPLICATE_KEY_ERROR : undefined);
    seen.add(row.key);
    if (problem) errors.set(row.id, problem);
  }
  return errors;
}

/** The rows as a map; null when there are none, which removes the key. */
export function rowsToRecord(rows: readonly KeyValueRow[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const row of rows) if (!isEmptyRow(row)) out[row.key] = row.value;
  return Object.keys(out).length > 0 ? out : null;
}

export function recordToRows(
  record: Record<string, unknown> | null | undefined,
  nextId: () => number,
): KeyValueRow[] {
  return Object.entries(record ?? {}).map(([key, value]) => ({ id: nextId(), key, value: String(value) }));
}
