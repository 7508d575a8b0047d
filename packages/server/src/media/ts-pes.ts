import { TS_WRAP } from './ts-packet.js';

/** A PES header with PTS (and DTS when it differs); `length` 0 leaves the packet length open (video). */
export function pesHeader(streamId: number, pts: number, dts: number | undefined, length: number): Buffer {
  const withDts = dts !== undefined && dts !== pts;
  const headerData = withDts ? 10 : 5;
  const header = Buffer.alloc(9 + headerData);
  header.writeUIntBE(0x000001, 0, 3);
  header[3] = streamId;
  const packetLength = length === 0 ? 0 : 3 + headerData + length;
  header.writeUInt16BE(packetLength > 0xffff ? 0 : packetLength, 4);
  header[6] = 0x80;
  header[7] = withDts ? 0xc0 : 0x80;
  header[8] = headerData;
  writeTimestamp(header, 9, withDts ? 3 : 2, pts);
  if (withDts) writeTimestamp(header, 14, 1, dts);
  return header;
}

function writeTimestamp(b: Buffer, o: number, prefix: number, value: number): void {
  const ts = ((value % TS_WRAP) + TS_WRAP) % TS_WRAP;
  const high = Math.floor(ts / 2 ** 30) & 7;
  const low = ts % 2 ** 30;
  b[o] = (prefix << 4) | (high << 1) | 1;
  b[o + 1] = (low >>> 22) & 0xff;
  b[o + 2] = ((low >>> 14) & 0xfe) | 1;
  b[o + 3] = (low >>> 7) & 0xff;
  b[o + 4] = ((low << 1) & 0xfe) | 1;
}

/**
 * program_clock_reference at `o`: a 33-bit base in 90 kHz, 6 reserved bits, a 9-bit extension left 0;
 * returns the offset after it. In a publish's first `PCR_DELAY_MS` the clock is below zero and
 * wraps, as it does every 26.5 h.
 */
export function writePcr(out: Buffer, o: number, value: number): number {
  const base = ((value % TS_WRAP) + TS_WRAP) % TS_WRAP;
  const high = Math.floor(base / 2); // the top 32 bits
  out[o] = (high >>> 24) & 0xff;
  out[o + 1] = (high >>> 16) & 0xff;
  out[o + 2] = (high >>> 8) & 0xff;
  out[o + 3] = high & 0xff;
  out[o + 4] = ((base & 1) << 7) | 0x7e;
  out[o + 5] = 0x00;
  return o + 6;
}

/** An access unit in one buffer or in pieces. */
export type Payload = Buffer | readonly Buffer[];
export const pieces = (payload: Payload): readonly Buffer[] =>
  Buffer.isBuffer(payload) ? [payload] : payload;
export const byteLength = (parts: readonly Buffer[]) => parts.reduce((n, p) => n + p.length, 0);

/** Reads a PES header and its payload's pieces in order, copying runs of them into packets. */
export class PieceCursor {
  private piece: Buffer;
  private index = -1;
  private offset = 0;

  constructor(
    header: Buffer,
    private readonly payload: readonly Buffer[],
  ) {
    this.piece = header;
  }

  /** Copies the next `count` bytes to `out` at `o`. */
  copyTo(out: Buffer, o: number, count: number): void {
    let left = count;
    while (left > 0) {
      while (this.offset === this.piece.length) {
        this.piece = this.payload[++this.index]!;
        this.offset = 0;
      }
      const n = Math.min(left, this.piece.length - this.offset);
      // Short runs (start codes, headers) byte by byte: cheaper than a copy call's typed-array view.
      if (n < 32) for (let i = 0; i < n; i++) out[o + i] = this.piece[this.offset + i]!;
      else this.piece.copy(out, o, this.offset, this.offset + n);
      o += n;
      this.offset += n;
      left -= n;
    }
  }
}
