import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32Mpeg } from '../media/crc32.js';
import { Bits, scte35Section as section, spliceInsert, spliceTime } from './testing/scte35-sections.js';
import { parseSpliceInfo, type SpliceInfo } from './scte35.js';
import { cueOf } from './scte35-cue.js';

const info = (bytes: Uint8Array): SpliceInfo => {
  const parsed = parseSpliceInfo(bytes);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.info;
};

describe('parseSpliceInfo on sections built per SCTE 35 §9', () => {
  it('reads a splice_insert cue-out: event, splice time with pts_adjustment, break duration', () => {
    const bytes = section(
      0x05,
      spliceInsert({ eventId: 42, outOfNetwork: true, pts: 2 ** 33 - 10, durationTicks: 30 * 90_000 }),
      {
        adjust: 100,
      },
    );
    const parsed = info(bytes);
    expect(parsed.command).toMatchObject({
      type: 'splice_insert',
      eventId: 42,
      cancel: false,
      outOfNetwork: true,
      immediate: false,
      pts90k: 90, // wrapped at 2^33
      breakDuration: { autoReturn: true, duration90k: 2_700_000 },
      uniqueProgramId: 0x1234,
      availNum: 1,
      availsExpected: 2,
    });
    expect(cueOf(parsed)).toEqual({ kind: 'out', eventId: 42, pts90k: 90, durationS: 30 });
  });

  it('reads an immediate cue-in and a cancelled event', () => {
    const back = info(section(0x05, spliceInsert({ eventId: 7, outOfNetwork: false, immediate: true })));
    expect(cueOf(back)).toEqual({ kind: 'in', eventId: 7 });
    const cancel = new Bits().put(9, 32).put(1, 1).put(0x7f, 7).bytes();
    const cancelled = info(section(0x05, cancel));
    expect(cancelled.command).toMatchObject({ type: 'splice_insert', eventId: 9, cancel: true });
    expect(cueOf(cancelled)).toBeUndefined();
  });

  it('reads splice_null and a time_signal', () => {
    expect(info(section(0x00, [])).command).toEqual({ type: 'splice_null' });
    const signal = info(section(0x06, spliceTime(new Bits(), 1234).bytes()));
    expect(signal.command).toEqual({ type: 'time_signal', pts90k: 1234 });
  });

  it("reads real encoders' sections (the SCTE 35 examples)", () => {
    // §14.2: a splice_insert, out of network, with an avail_descriptor.
    const insert = info(
      Buffer.from('/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=', 'base64'),
    );
    expect(cueOf(insert)).toEqual({
      kind: 'out',
      eventId: 0x4800008f,
      pts90k: 1936310318,
      durationS: 5426421 / 90_000,
    });
    // §14.1: a time_signal with a provider placement opportunity start (0x34) of 307 s.
    const signal = info(
      Buffer.from('/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg==', 'base64'),
    );
    expect(signal.segmentations).toEqual([
      { eventId: 0x4800008e, cancel: false, typeId: 0x34, duration90k: 27630000 },
    ]);
    expect(cueOf(signal)).toEqual({ kind: 'out', eventId: 0x4800008e, pts90k: 1924989008, durationS: 307 });
  });

  it('refuses a wrong CRC, a wrong table, lengths past the bytes, and a command whose length lies', () => {
    const good = section(0x05, spliceInsert({ eventId: 1, outOfNetwork: true, pts: 5 }));
    const flipped = Buffer.from(good);
    flipped[20]! ^= 0x01;
    expect(parseSpliceInfo(flipped)).toEqual({ error: 'CRC_32 mismatch' });
    expect(parseSpliceInfo(Buffer.concat([Buffer.from([0x00]), good.subarray(1)]))).toHaveProperty('error');
    expect(parseSpliceInfo(good.subarray(0, good.length - 1))).toHaveProperty('error');
    // The command's own fields end before splice_command_length says: refused, CRC right or not.
    const short = section(0x05, [...spliceInsert({ eventId: 1, outOfNetwork: true, pts: 5 }), 0]);
    expect(parseSpliceInfo(short)).toHaveProperty('error');
  });
});

describe('parseSpliceInfo under garbage (10^4 cases)', () => {
  const valid = section(
    0x05,
    spliceInsert({ eventId: 3, outOfNetwork: true, pts: 99, durationTicks: 900_000 }),
  );
  it('never throws on random bytes, nor on valid sections with bytes changed (CRC fixed up or not)', () => {
    const mutated = fc
      .tuple(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.boolean(),
        fc.nat(valid.length),
      )
      .map(([changes, fixCrc, cut]) => {
        const bytes = Buffer.from(valid);
        for (const [at, value] of changes) bytes[at] = value;
        if (fixCrc) bytes.writeUInt32BE(crc32Mpeg(bytes, 0, bytes.length - 4), bytes.length - 4);
        return cut > 0 && cut < 8 ? bytes.subarray(0, bytes.length - cut) : bytes;
      });
    const random = fc.uint8Array({ maxLength: 300 }).map((b) => {
      if (b.length > 3) b[0] = 0xfc;
      return b;
    });
    fc.assert(
      fc.property(fc.oneof(mutated, random), (bytes) => {
        const parsed = parseSpliceInfo(bytes);
        expect('info' in parsed || typeof parsed.error === 'string').toBe(true);
        if ('info' in parsed) cueOf(parsed.info);
      }),
      { numRuns: 10_000 },
    );
  });
});
