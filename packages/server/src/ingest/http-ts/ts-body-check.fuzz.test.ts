import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeClip } from '../../../test/ts-fixtures.js';
import { TsBodyCheck } from './ts-body-check.js';

/**
 * An HTTP publisher's body, cut anywhere by TCP: what reaches the stream is whole 188-byte packets
 * (the stream's own TS input path, media/ts-input.fuzz.test.ts, takes any packets), a real feed in
 * any chunking passes whole and is never judged garbage, and garbage is judged so within a bound.
 */
const clip = makeClip({ seconds: 1, video: 'h264', audio: 'aac', width: 160, height: 96, gop: 12 });

const cuts = (data: Buffer, sizes: number[]): Buffer[] => {
  const out: Buffer[] = [];
  let o = 0;
  for (let i = 0; o < data.length; i++) {
    const size = sizes[i % sizes.length]!;
    out.push(data.subarray(o, o + size));
    o += size;
  }
  return out;
};

describe('TsBodyCheck (HTTP MPEG-TS publish body)', () => {
  it('passes a real feed whole in any chunking, never judged garbage', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 20 }), (sizes) => {
        const check = new TsBodyCheck();
        const out = Buffer.concat(cuts(clip, sizes).map((c) => check.push(c)));
        expect(check.garbage).toBeUndefined();
        expect(out.equals(clip)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives only whole packets for any bytes, and judges a body of random bytes garbage by 128 KB', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 8 }),
        (bytes, sizes) => {
          const check = new TsBodyCheck();
          for (const chunk of cuts(Buffer.from(bytes), sizes)) {
            const packets = check.push(chunk);
            expect(packets.length % 188).toBe(0);
            for (let o = 0; o < packets.length; o += 188) expect(packets[o]).toBe(0x47);
          }
        },
      ),
      { numRuns: 10_000 },
    );
    // Text (no 0x47 'G' in it) is not MPEG-TS.
    const check = new TsBodyCheck();
    for (let i = 0; i < 32 && !check.garbage; i++) check.push(Buffer.alloc(4096, 'hello world '));
    expect(check.garbage).toMatch(/without TS packet sync/);
  });
});
