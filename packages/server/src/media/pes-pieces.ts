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
