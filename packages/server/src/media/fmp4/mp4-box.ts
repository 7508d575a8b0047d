/** ISO BMFF (ISO/IEC 14496-12) box writing: each box is its 32-bit size, its type, then its body. */

export type Bytes = Buffer | Uint8Array;

export function box(type: string, ...body: Bytes[]): Buffer {
  const size = 8 + body.reduce((n, b) => n + b.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(size, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, ...body]);
}

/** A FullBox: a version byte and 24 bits of flags before the body (§4.2). */
export function fullBox(type: string, version: number, flags: number, ...body: Bytes[]): Buffer {
  const vf = Buffer.alloc(4);
  vf.writeUInt32BE(((version & 0xff) << 24) | (flags & 0xffffff), 0);
  return box(type, vf, ...body);
}

export const u8 = (...values: number[]): Buffer => Buffer.from(values.map((v) => v & 0xff));

export function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(2 * values.length);
  values.forEach((v, i) => b.writeUInt16BE(v & 0xffff, 2 * i));
  return b;
}

export function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

export function i32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(value, 0);
  return b;
}

/** A 64-bit unsigned value (decode times past 2^32 ticks: about 13 hours at 90 kHz). */
export function u64(value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(Math.max(0, Math.round(value))), 0);
  return b;
}

/** Four-character codes, e.g. the brands of ftyp/styp. */
export const fourCc = (...codes: string[]): Buffer => Buffer.from(codes.join(''), 'latin1');
