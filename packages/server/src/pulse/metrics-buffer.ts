/**
 * A growable byte buffer the scrape is written into. At 20,000 streams a scrape is ~200,000 lines:
 * built as strings (template lines appended to ropes, or joined arrays) most of its time went to
 * the garbage collector (69 % of a profile); written as bytes it is 4–7 times faster.
 */
export class MetricsBuffer {
  private buf = Buffer.allocUnsafe(16 * 1024);
  length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + bytes) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  /** UTF-8 text (a stream's name may be any text). */
  text(s: string): this {
    this.room(s.length * 3);
    this.length += this.buf.write(s, this.length, 'utf8');
    return this;
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  /** Bytes of this buffer itself, [from, to): a label written once and copied to each line. */
  copyWithin(from: number, to: number): this {
    this.room(to - from);
    this.length += this.buf.copy(this.buf, this.length, from, to);
    return this;
  }

  /** Copies [from, to) of another buffer (a stream's label) to the end of this one. */
  copyFrom(other: MetricsBuffer, from: number, to: number): this {
    this.room(to - from);
    this.length += other.buf.copy(this.buf, this.length, from, to);
    return this;
  }

  /** A sample's value and the end of its line; NaN and infinities as the format names them. */
  value(v: number): this {
    this.room(32);
    const text = Number.isFinite(v) ? String(v) : Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
    this.buf[this.length++] = 0x20;
    this.length += this.buf.write(text, this.length, 'latin1');
    this.buf[this.length++] = 0x0a;
    return this;
  }

  view(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
