import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyEditS } from './dash-init-edit.js';

const box = (type: string, ...body: Buffer[]): Buffer => {
  const payload = Buffer.concat(body);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
};
const u32 = (...values: number[]) =>
  Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255])));
const mvhd = (timescale: number) => box('mvhd', u32(0, 0, 0, timescale, 0), Buffer.alloc(80));
const elst = (...entries: [number, number][]) =>
  box('elst', u32(0, entries.length), ...entries.map(([d, t]) => u32(d, t >>> 0, 0x10000)));

describe('emptyEditS', () => {
  it("reads the leading empty edit of ffmpeg's video init (26 ms at timescale 1000)", () => {
    const init = Buffer.concat([
      box('ftyp', Buffer.from('iso5')),
      box(
        'moov',
        mvhd(1000),
        box('trak', box('tkhd', Buffer.alloc(84)), box('edts', elst([26, -1], [0, 0]))),
      ),
    ]);
    expect(emptyEditS(init)).toBe(0.026);
  });

  it('is 0 for a track that starts at once (an edit with a media time) and for no edit list', () => {
    expect(emptyEditS(box('moov', mvhd(1000), box('trak', box('edts', elst([0, 0])))))).toBe(0);
    expect(emptyEditS(box('moov', mvhd(1000), box('trak')))).toBe(0);
  });

  it('never throws on damaged boxes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), (bytes, cut) => {
        const good = box('moov', mvhd(1000), box('trak', box('edts', elst([26, -1]))));
        const mixed = Buffer.concat([good.subarray(0, cut % (good.length + 1)), Buffer.from(bytes)]);
        expect(emptyEditS(mixed)).toBeGreaterThanOrEqual(0);
        expect(emptyEditS(Buffer.from(bytes))).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 10_000 },
    );
  });
});
