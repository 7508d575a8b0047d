/**
 * Token inputs and port lists (spec 000 §5): text split on separators; an empty list is null, which
 * removes the key from the config.
 */
const SEPARATORS = /[\s,;]+/;

export function splitTokens(text: string): string[] | null {
  const tokens = text.split(SEPARATORS).filter((t) => t !== '');
  return tokens.length > 0 ? tokens : null;
}

export function joinTokens(tokens: readonly (string | number)[] | null | undefined): string {
  return (tokens ?? []).join(', ');
}

/** Port lists: values parsed to integers, non-numeric entries dropped. */
export function parsePortList(text: string): number[] | null {
  const ports = (splitTokens(text) ?? []).filter((t) => /^\d+$/.test(t)).map((t) => Number.parseInt(t, 10));
  return ports.length > 0 ? ports : null;
}
