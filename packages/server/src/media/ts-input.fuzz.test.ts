import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunks, makeClip } from '../../test/ts-fixtures.js';
import { PacketBus } from './packet-bus.js';

/**
 * Whatever a UDP or HTTP source sends goes through the whole in-process pipeline: packetizer,
 * program filter, demuxer, video probe (NAL, SEI and slice headers), PSI copy, segmenter. Anyone who
 * can reach a multicast group or an HTTP origin controls those bytes, so no sequence of them may
 * throw (a throw in a source's data handler would end the process) or make memory grow without
 * bound, and a valid source after garbage must play again.
 */

const OPTIONS = { targetDurationMs: 1000, windowSize: 3 };
const clips = [
  makeClip({ seconds: 2, video: 'h264', audio: 'aac', width: 160, height: 96, gop: 12 }),
  makeClip({ seconds: 2, video: 'hevc', width: 160, height: 96, gop: 12 }),
  makeClip({ seconds: 2, video: 'mpeg2', audio: 'mp2', width: 160, height: 96, gop: 12 }),
];
const valid = clips[0]!;
/** PIDs a real clip uses (PAT, PMT, SDT, video, audio), so random packets reach every parser. */
const PIDS = [0x0000, 0x1000, 0x0011, 0x0100, 0x0101];

const randomPacket = fc
  .record({
    pid: fc.oneof(fc.constantFrom(...PIDS), fc.integer({ min: 0, max: 0x1fff })),
    unitStart: fc.boolean(),
    adaptation: fc.integer({ min: 0, max: 3 }),
    cc: fc.integer({ min: 0, max: 15 }),
    body: fc.uint8Array({ minLength: 184, maxLength: 184 }),
    pesLike: fc.boolean(),
  })
  .map(({ pid, unitStart, adaptation, cc, body, pesLike }) => {
    const p = Buffer.alloc(188);
    p[0] = 0x47;
    p[1] = (unitStart ? 0x40 : 0) | (pid >> 8);
    p[2] = pid & 0xff;
    p[3] = (adaptation << 4) | cc;
    Buffer.from(body).copy(p, 4);
    // Half of them open like a PES (start code, video or audio stream id) or a section, so the
    // parsers behind the first check see arbitrary headers rather than stopping at the prefix.
    if (pesLike && adaptation === 1) {
      if (pid === 0 || pid === 0x1000 || pid === 0x11) p[4] = 0;
      else p.set([0, 0, 1, pid === 0x0101 ? 0xc0 : 0xe0], 4);
    }
    return p;
  });

type Mutation =
  | { kind: 'flip'; at: number; value: number }
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'repeat'; at: number; length: number }
  | { kind: 'switch'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 4000 }) }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 4000 }),
  }),
  fc.record({ kind: fc.constant('switch' as const), at: fc.nat() }),
);

/** Applies byte mutations to a copy of `data`; source switches are returned as offsets. */
function mutate(data: Buffer, mutations: Mutation[]): { bytes: Buffer; switches: number[] } {
  let bytes = Buffer.from(data);
  const switches: number[] = [];
  for (const m of mutations) {
    const at = m.at % bytes.length;
    if (m.kind === 'flip') bytes[at] = m.value;
    else if (m.kind === 'cut') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
    else if (m.kind === 'repeat')
      bytes = Buffer.concat([bytes.subarray(0, at + m.length), bytes.subarray(at, bytes.length)]);
    else switches.push(at);
    if (bytes.length === 0) bytes = Buffer.from(data.subarray(0, 188));
  }
  return { bytes, switches: switches.sort((a, b) => a - b) };
}

/** Feeds `bytes` in chunks of `size`, switching source at the given offsets; never throws. */
function feed(bus: PacketBus, bytes: Buffer, size: number, switches: number[] = []): void {
  let next = 0;
  for (let o = 0; o < bytes.length; o += size) {
    while (next < switches.length && switches[next]! < o + size) {
      bus.discontinuity();
      next++;
    }
    bus.write(bytes.subarray(o, o + size));
  }
}

/** The bus still makes segments from a valid source once the garbage is over. */
function recovers(bus: PacketBus): void {
  const before = bus.segmenter.segments.length;
  bus.discontinuity();
  for (const c of chunks(valid, 7 * 188)) bus.write(c);
  expect(bus.segmenter.segments.length).toBeGreaterThan(before);
}

describe('MPEG-TS input fuzzing (UDP and HTTP sources)', () => {
  it('takes random packets on the PIDs a clip uses without throwing, and plays a valid source after', () => {
    fc.assert(
      fc.property(
        fc.array(randomPacket, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 2000 }),
        (packets, size) => {
          const bus = new PacketBus(OPTIONS);
          // A real clip's tables first, so the random packets reach the PES and NAL parsers.
          bus.write(valid.subarray(0, 188 * 4));
          feed(bus, Buffer.concat(packets), size);
          recovers(bus);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('takes mutated real clips (H.264/AAC, HEVC, MPEG-2/MP2) with source switches, memory bounded', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: clips.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 100, max: 70_000 }),
        (clip, mutations, size) => {
          const data = clips[clip]!;
          const { bytes, switches } = mutate(data, mutations);
          const bus = new PacketBus(OPTIONS);
          feed(bus, bytes, size, switches);
          // Held media never exceeds what was fed (plus the PSI copies it adds per segment).
          expect(bus.segmenter.memoryBytes).toBeLessThan(bytes.length * 2 + 64 * 1024);
          recovers(bus);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
