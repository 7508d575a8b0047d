/**
 * The stream name lists of a mirror (spec 001 §2 Mirror item: Ignored streams, Taken streams),
 * typed as text separated by commas or spaces. An empty list is null: the key is removed.
 */
const SEPARATORS = /[\s,]+/;

export function parseNameList(text: string): string[] | null {
  const names = text.split(SEPARATORS).filter((name) => name !== '');
  return names.length > 0 ? [...new Set(names)] : null;
}

export const formatNameList = (names: readonly string[] | null | undefined): string =>
  (names ?? []).join(', ');
