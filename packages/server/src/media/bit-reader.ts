/** Reads bits MSB first, with the Exp-Golomb codes H.264 and HEVC headers are written in. */
export class BitReader {
  private bit = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get bitsLeft(): number {
    return this.bytes.length * 8 - this.bit;
  }

  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new RangeError('read past the end of the header');
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }

  flag(): boolean {
    return this.u(1) === 1;
  }

  skip(count: number): void {
    this.bit += count;
  }

  /** Unsigned Exp-Golomb. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros++;
      if (zeros > 31) throw new RangeError('an Exp-Golomb code longer than 32 bits');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }

  /** Signed Exp-Golomb. */
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** Removes emulation-prevention bytes (00 00 03 → 00 00) from a NAL unit's payload. */
export function unescapeRbsp(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length);
  let n = 0;
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out[n++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, n);
}
