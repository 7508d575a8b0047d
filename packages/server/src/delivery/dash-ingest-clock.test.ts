import { describe, expect, it } from 'vitest';
import { firstPtsS, IngestClock, pesTimestamps } from './dash-ingest-clock.js';

/** A 33-bit PES timestamp field with its 4-bit prefix and marker bits. */
function tsField(prefix: number, ticks: number): Buffer {
  const high = Math.floor(ticks / 2 ** 30);
  const mid = Math.floor(ticks / 2 ** 15) % 2 ** 15;
  const low = ticks % 2 ** 15;
  return Buffer.from([
    (prefix << 4) | (high << 1) | 1,
    mid >> 7,
    ((mid & 0x7f) << 1) | 1,
    low >> 7,
    ((low & 0x7f) << 1) | 1,
  ]);
}

/** One TS packet starting a PES of `streamId` with a PTS (and a DTS when given). */
function pesPacket(streamId: number, pts: number, dts?: number, adaptation = false): Buffer {
  const fields =
    dts === undefined ? tsField(0b0010, pts) : Buffer.concat([tsField(0b0011, pts), tsField(0b0001, dts)]);
  const pes = Buffer.concat([
    Buffer.from([0, 0, 1, streamId, 0, 0, 0x80, dts === undefined ? 0x80 : 0xc0, fields.length]),
    fields,
  ]);
  const header = Buffer.from([0x47, 0x41, 0x00, adaptation ? 0x30 : 0x10]);
  const stuffing = adaptation ? Buffer.from([7, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0);
  const packet = Buffer.alloc(188, 0xff);
  Buffer.concat([header, stuffing, pes]).copy(packet);
  return packet;
}

describe('pesTimestamps', () => {
  it('reads 33-bit PTS and DTS of PES starts, also behind an adaptation field', () => {
    const big = 2 ** 32 + 12345;
    const chunk = Buffer.concat([pesPacket(0xe0, big + 6000, big), pesPacket(0xc0, 900, undefined, true)]);
    expect(pesTimestamps(chunk)).toEqual([
      { streamId: 0xe0, pts: big + 6000, dts: big },
      { streamId: 0xc0, pts: 900, dts: 900 },
    ]);
  });
});

describe('firstPtsS', () => {
  it('is the first video PTS when there is video, else the first PTS', () => {
    expect(firstPtsS([pesPacket(0xc0, 90_000), pesPacket(0xe0, 180_000, 171_000)])).toBe(2);
    expect(firstPtsS([pesPacket(0xc0, 90_000)])).toBe(1);
    expect(firstPtsS([])).toBeUndefined();
  });
});

describe('IngestClock', () => {
  it('maps TS time to the wall clock by the least delayed video arrival of the last 10 s', () => {
    const clock = new IngestClock();
    expect(clock.offsetMs).toBeUndefined();
    // Audio counts only until video shows up.
    clock.observe(pesPacket(0xc0, 90_000), 1_000_000);
    expect(clock.offsetMs).toBe(999_000);
    clock.observe(pesPacket(0xe0, 99_000, 90_000), 1_000_050);
    clock.observe(pesPacket(0xe0, 103_500, 94_500), 1_000_060);
    clock.observe(pesPacket(0xc0, 1), 1_000_060);
    expect(clock.offsetMs).toBe(999_010);
    // A late arrival does not move it; after 10 s the early ones are forgotten.
    clock.observe(pesPacket(0xe0, 108_000, 99_000), 1_000_500);
    expect(clock.offsetMs).toBe(999_010);
    clock.observe(pesPacket(0xe0, 117_000, 108_000), 1_011_000);
    expect(clock.offsetMs).toBe(1_009_800);
  });
});
