/**
 * The NAL units of an Annex B byte stream (ITU-T H.264 §B.1), without their start codes. A NAL unit
 * never ends in a zero byte (rbsp_trailing_bits), so zeros before a start code are the 4-byte
 * code's leading zero or trailing_zero_8bits, and are dropped.
 */
export function nalUnits(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = -1;
  for (let i = 0; i + 2 < b.length; i++) {
    if (b[i + 2]! > 1) {
      i += 2;
      continue;
    }
    if (b[i] !== 0 || b[i + 1] !== 0 || b[i + 2] !== 1) continue;
    if (start >= 0) out.push(trimZeros(b, start, i));
    start = i + 3;
    i += 2;
  }
  if (start >= 0) out.push(trimZeros(b, start, b.length));
  return out.filter((nal) => nal.length > 0);
}

function trimZeros(b: Buffer, start: number, end: number): Buffer {
  let e = end;
  while (e > start && b[e - 1] === 0) e--;
  return b.subarray(start, e);
}

/** The sample form in MP4 (ISO/IEC 14496-15 §4.3): each NAL unit after its 4-byte length. */
export function lengthPrefixed(nals: readonly Buffer[]): Buffer[] {
  const parts: Buffer[] = [];
  for (const nal of nals) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(nal.length, 0);
    parts.push(length, nal);
  }
  return parts;
}
