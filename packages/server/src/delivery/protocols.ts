/**
 * A stream's protocol switches (spec 001 §4): each protocol is `false` (except), unset (neutral) or
 * `true` (only). Once any protocol is `true`, only those marked `true` are served; otherwise every
 * protocol not marked `false` is.
 */
export function protocolAllowed(
  protocols: Readonly<Record<string, boolean>> | undefined,
  protocol: string,
): boolean {
  if (!protocols) return true;
  const value = protocols[protocol];
  if (value !== undefined) return value;
  return !Object.values(protocols).includes(true);
}
