/** What an LL-HLS playlist request asks for (RFC 8216bis §6.2.5: delivery directives). */
export interface LlDirectives {
  /** _HLS_msn: hold the answer until the playlist holds this media sequence number. */
  msn?: number;
  /** _HLS_part: …and this part of it (0-based). */
  part?: number;
  /** _HLS_skip=YES|v2: a delta update asked for (CAN-SKIP-UNTIL; no date ranges here, so v2 is YES). */
  skip?: 'YES' | 'v2';
}

const DECIMAL = /^(?:0|[1-9]\d{0,14})$/;

/**
 * Reads the delivery directives of a playlist URL's query (the part after `?`, undecoded). Other
 * parameters (a token) are left alone. A directive given twice, a number that is not a decimal
 * integer below 10^15, `_HLS_part` without `_HLS_msn`, or a skip value other than YES/v2 is an
 * error (§6.2.5.2: 400 Bad Request).
 */
export function parseLlDirectives(query: string): LlDirectives | { error: string } {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    return { error: 'unreadable query' };
  }
  const out: LlDirectives = {};
  for (const key of ['_HLS_msn', '_HLS_part', '_HLS_skip'] as const) {
    const values = params.getAll(key);
    if (values.length === 0) continue;
    if (values.length > 1) return { error: `${key} given ${values.length} times` };
    const value = values[0]!;
    if (key === '_HLS_skip') {
      if (value !== 'YES' && value !== 'v2') return { error: `_HLS_skip must be YES or v2` };
      out.skip = value;
      continue;
    }
    if (!DECIMAL.test(value)) return { error: `${key} must be a decimal integer` };
    if (key === '_HLS_msn') out.msn = Number(value);
    else out.part = Number(value);
  }
  if (out.part !== undefined && out.msn === undefined) return { error: '_HLS_part without _HLS_msn' };
  return out;
}

/**
 * Whether a playlist at `position` answers a request for segment `msn` (whole, when `part` is not
 * given) or its part `part`: RFC 8216bis §6.2.5.2 — a later segment or part also answers it, and a
 * part index past the segment's last part is the next segment's first part.
 */
export function directiveMet(
  position: { msn: number; parts: number; complete: boolean },
  msn: number,
  part: number | undefined,
): boolean {
  // A newer segment exists only once it has a part, and then every segment before it is whole.
  if (position.msn > msn) return true;
  if (position.msn < msn) return false;
  return part === undefined ? position.complete : position.parts > part;
}
