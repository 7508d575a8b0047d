/** MPEG-TS packet layout (ISO 13818-1 §2.4.3.2), read straight from a buffer at an offset. */
export const PACKET_SIZE = 188;
export const SYNC_BYTE = 0x47;
export const PAT_PID = 0;
export const NULL_PID = 0x1fff;

/** The 90 kHz clock of PTS/DTS, and its 33-bit wrap. */
export const TS_CLOCK = 90_000;
export const TS_WRAP = 2 ** 33;

export const pidOf = (b: Buffer, o: number): number => ((b[o + 1]! & 0x1f) << 8) | b[o + 2]!;
/** payload_unit_start_indicator: a PES packet or PSI section starts in this packet. */
export const startsUnit = (b: Buffer, o: number): boolean => (b[o + 1]! & 0x40) !== 0;
export const hasPayload = (b: Buffer, o: number): boolean => (b[o + 3]! & 0x10) !== 0;
export const hasAdaptation = (b: Buffer, o: number): boolean => (b[o + 3]! & 0x20) !== 0;
export const continuityOf = (b: Buffer, o: number): number => b[o + 3]! & 0x0f;

/** The adaptation field's discontinuity_indicator: the continuity counter may jump here. */
export function isDiscontinuity(b: Buffer, o: number): boolean {
  return hasAdaptation(b, o) && b[o + 4]! > 0 && (b[o + 5]! & 0x80) !== 0;
}

/** The adaptation field's random_access_indicator: a decoder may start at the PES beginning here. */
export function isRandomAccess(b: Buffer, o: number): boolean {
  return hasAdaptation(b, o) && b[o + 4]! > 0 && (b[o + 5]! & 0x40) !== 0;
}

/** Offset of the payload within the buffer, or -1 when the packet carries none. */
export function payloadOffset(b: Buffer, o: number): number {
  if (!hasPayload(b, o)) return -1;
  const start = hasAdaptation(b, o) ? o + 5 + b[o + 4]! : o + 4;
  return start < o + PACKET_SIZE ? start : -1;
}

/** A 33-bit PTS/DTS from its 5-byte field (ISO 13818-1 §2.4.3.7). */
export function readTimestamp(b: Uint8Array, o: number): number {
  return (
    ((b[o]! >> 1) & 0x07) * 2 ** 30 +
    (b[o + 1]! << 22) +
    ((b[o + 2]! >> 1) << 15) +
    (b[o + 3]! << 7) +
    (b[o + 4]! >> 1)
  );
}

/** b − a in 90 kHz ticks across a 33-bit wrap, as the shortest signed distance. */
export function tsDiff(b: number, a: number): number {
  let d = (b - a) % TS_WRAP;
  if (d > TS_WRAP / 2) d -= TS_WRAP;
  if (d < -TS_WRAP / 2) d += TS_WRAP;
  return d;
}

export interface PesHeader {
  pts: number | undefined;
  dts: number | undefined;
  /** Offset of the elementary stream bytes within the buffer. */
  dataOffset: number;
}

/** Reads the PES header at `o` (the payload start of a unit-start packet) up to `end`. */
export function readPesHeader(b: Buffer, o: number, end: number): PesHeader | undefined {
  if (end - o < 9 || b[o] !== 0 || b[o + 1] !== 0 || b[o + 2] !== 1) return undefined;
  const flags = b[o + 7]! >> 6;
  const dataOffset = o + 9 + b[o + 8]!;
  if (dataOffset > end) return undefined;
  const pts = flags & 2 && end - o >= 14 ? readTimestamp(b, o + 9) : undefined;
  const dts = flags === 3 && end - o >= 19 ? readTimestamp(b, o + 14) : pts;
  return { pts, dts, dataOffset };
}
