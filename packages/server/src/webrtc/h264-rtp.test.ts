import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  depacketizeH264,
  H264Units,
  MAX_RTP_PAYLOAD_BYTES,
  nalType,
  packetizeH264,
  splitAnnexB,
} from './h264-rtp.js';
import { RtpClock } from './rtp-clock.js';
import { TsH264Reader, type TsVideoUnit } from './ts-h264-reader.js';

const annexB = (...units: number[][]) => Buffer.concat(units.map((u) => Buffer.from([0, 0, 0, 1, ...u])));

describe('H.264 to RTP (RFC 6184, packetization-mode 1)', () => {
  it('splits Annex B on 3- and 4-byte start codes', () => {
    const data = Buffer.from([0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 1, 0x65, 4, 5]);
    expect(splitAnnexB(data).map((u) => [...u])).toEqual([
      [0x67, 1, 2],
      [0x68, 3],
      [0x65, 4, 5],
    ]);
  });

  it('sends a small unit alone and a large one in FU-A fragments that reassemble exactly', () => {
    const big = Buffer.alloc(3000, 7);
    big[0] = 0x65;
    const small = Buffer.from([0x41, 1, 2, 3]);
    const payloads = packetizeH264([small, big]);
    expect(payloads[0]).toEqual(small);
    expect(payloads.length).toBe(1 + Math.ceil((big.length - 1) / (MAX_RTP_PAYLOAD_BYTES - 2)));
    for (const p of payloads) expect(p.length).toBeLessThanOrEqual(MAX_RTP_PAYLOAD_BYTES);
    // FU indicator keeps NRI (0x60) with type 28; the first header has S, the last E.
    expect(payloads[1]![0]).toBe(0x60 | 28);
    expect(payloads[1]![1]).toBe(0x80 | 5);
    expect(payloads.at(-1)![1]).toBe(0x40 | 5);
    expect(depacketizeH264(payloads)).toEqual([small, big]);
  });

  it('drops delimiters and puts the last SPS/PPS before an IDR that came without them', () => {
    const units = new H264Units();
    const first = units.take(annexB([0x09, 0xf0], [0x67, 0x64, 0, 0x1f], [0x68, 0xee], [0x65, 1]));
    expect(first.keyframe).toBe(true);
    expect(first.units.map(nalType)).toEqual([7, 8, 5]);
    expect(units.take(annexB([0x09, 0xf0], [0x41, 2])).units.map(nalType)).toEqual([1]);
    const bare = units.take(annexB([0x65, 3]));
    expect(bare.units.map((u) => [...u])).toEqual([
      [0x67, 0x64, 0, 0x1f],
      [0x68, 0xee],
      [0x65, 3],
    ]);
  });
});

describe('TsH264Reader', () => {
  let units: TsVideoUnit[];

  beforeAll(() => {
    // Two seconds of 25 fps H.264 (a keyframe each second) with AAC, as a test:// source muxes it.
    const ts = spawnSync(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
        ...['-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25:duration=2'],
        ...['-f', 'lavfi', '-i', 'sine=duration=2'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '25', '-c:a', 'aac'],
        ...['-f', 'mpegts', 'pipe:1'],
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    ).stdout;
    units = [];
    const reader = new TsH264Reader((unit) => units.push(unit));
    for (let o = 0; o < ts.length; o += 188 * 7) reader.push(ts.subarray(o, o + 188 * 7));
  });

  it('gives each access unit with its PTS, one frame apart, keyframes with their parameter sets', () => {
    // The last unit is held until a next one begins.
    expect(units.length).toBe(49);
    const steps = new Set(units.slice(1).map((u, i) => u.pts - units[i]!.pts));
    expect([...steps]).toEqual([3600]);
    const h264 = new H264Units();
    const taken = units.map((u) => h264.take(u.data));
    expect(taken.filter((t) => t.keyframe).length).toBe(2);
    expect(taken[0]!.units.slice(0, 2).map(nalType)).toEqual([7, 8]);
    // Round trip through RTP payloads gives back the very units.
    for (const t of taken)
      expect(depacketizeH264(packetizeH264(t.units))).toEqual(t.units.map((u) => Buffer.from(u)));
  });
});

describe('RtpClock', () => {
  it('follows the source, and goes on without a leap across a restart or a jump', () => {
    const clock = new RtpClock(90_000);
    const a = clock.map(1000, 3000);
    expect(clock.map(4600, 3000)).toBe((a + 3600) % 2 ** 32);
    // A new source whose PTS start elsewhere continues one step after the last output.
    clock.restart();
    expect(clock.map(900_000_000, 3000)).toBe((a + 3600 + 3000) % 2 ** 32);
    // A leap of a minute within one source is taken as a new timeline too.
    expect(clock.map(900_000_000 + 60 * 90_000, 3000)).toBe((a + 3600 + 6000) % 2 ** 32);
    // A 33-bit PTS wrap is no leap on the 32-bit RTP clock.
    const wrap = new RtpClock(90_000);
    const before = wrap.map(2 ** 33 - 1800, 3000);
    expect(wrap.map(1800, 3000)).toBe((before + 3600) % 2 ** 32);
  });
});
