import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initSegment } from '../media/fmp4/init-segment.js';
import { mssFragment, tfrf, tfxd } from './mss-boxes.js';
import { mssManifest } from './mss-manifest.js';
import { MSS_TIMESCALE, type MssSegment, mssSegment } from './mss-segment.js';

const dir = mkdtempSync(join(tmpdir(), 'mss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The boxes of a run of ISO BMFF bytes: [type, offset, size], containers opened. */
function boxes(bytes: Buffer, at = 0, end = bytes.length): [string, number, number][] {
  const out: [string, number, number][] = [];
  while (at + 8 <= end) {
    const size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    out.push([type, at, size]);
    if (['moof', 'traf'].includes(type)) out.push(...boxes(bytes, at + 8, at + size));
    at += size;
  }
  return out;
}

describe('Smooth Streaming boxes', () => {
  it('writes tfxd and tfrf as PIFF uuid boxes, version 1 (64-bit times)', () => {
    const x = tfxd({ t: 2 ** 40 + 5, d: 20_000_000 });
    expect(x.length).toBe(8 + 16 + 4 + 16);
    expect(x.toString('latin1', 4, 8)).toBe('uuid');
    expect(x.subarray(8, 24).toString('hex')).toBe('6d1d9b0542d544e680e2141daff757b2');
    expect(x.readUInt32BE(24)).toBe(0x01000000);
    expect(x.readBigUInt64BE(28)).toBe(BigInt(2 ** 40 + 5));
    expect(x.readBigUInt64BE(36)).toBe(20_000_000n);
    const r = tfrf([
      { t: 100, d: 10 },
      { t: 110, d: 12 },
    ]);
    expect(r.length).toBe(8 + 16 + 4 + 1 + 2 * 16);
    expect(r.subarray(8, 24).toString('hex')).toBe('d4807ef2ca3946958e5426cb9e46a79f');
    expect(r[28]).toBe(2);
    expect([
      r.readBigUInt64BE(29),
      r.readBigUInt64BE(37),
      r.readBigUInt64BE(45),
      r.readBigUInt64BE(53),
    ]).toEqual([100n, 10n, 110n, 12n]);
    expect(tfrf([]).length).toBe(8 + 16 + 4 + 1);
  });
});

describe('Smooth Streaming of TS segments', () => {
  let segments: MssSegment[];

  beforeAll(() => {
    // Two 2 s segments as the live segmenter cuts them: 25 fps H.264 with B-frames, 48 kHz mono AAC.
    const args = [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-c:a', 'aac'],
      ...['-t', '4', '-c:v', 'libx264', '-g', '50', '-bf', '2', '-pix_fmt', 'yuv420p'],
      ...['-f', 'segment', '-segment_time', '2', '-segment_format', 'mpegts', join(dir, 'seg%d.ts')],
    ];
    const made = spawnSync('ffmpeg', args, { timeout: 60_000 });
    if (made.status !== 0) throw new Error(`ffmpeg: ${made.stderr.toString()}`);
    const first = mssSegment(readFileSync(join(dir, 'seg0.ts')));
    const second = mssSegment(readFileSync(join(dir, 'seg1.ts')), {
      nearDts90k: first.endDts90k,
      parameterSets: first.parameterSets,
    });
    segments = [first, second];
  });

  it('gives each track its CodecPrivateData and times on 100 ns that join end to end', () => {
    const [a, b] = segments as [MssSegment, MssSegment];
    expect(a.video!.codecPrivateData).toMatch(/^000000016764[0-9A-F]+0000000168[0-9A-F]+$/);
    expect([a.video!.width, a.video!.height]).toEqual([320, 240]);
    // AudioSpecificConfig: AAC-LC (2), 48 kHz (index 3), mono: 00010 0011 0001 000.
    expect(a.audio).toMatchObject({ codecPrivateData: '1188', sampleRate: 48_000, channels: 1 });
    expect(a.video!.d).toBe(2 * MSS_TIMESCALE);
    expect(b.video!.t).toBe(a.video!.t + a.video!.d);
    // A segment's audio lasts about its 2 s (ffmpeg's cut is a few AAC frames off), the next goes on from it.
    expect(Math.abs(a.audio!.d - 2 * MSS_TIMESCALE)).toBeLessThan(MSS_TIMESCALE / 10);
    expect(Math.abs(b.audio!.t - (a.audio!.t + a.audio!.d))).toBeLessThanOrEqual(1);
    const sampleSum = a.video!.track.samples.reduce((n, s) => n + s.duration, 0);
    expect(sampleSum).toBe(a.video!.d);
  });

  it('writes fragments of moof (tfhd, tfdt, trun, tfxd, tfrf) and mdat that decode after an init', () => {
    const [a, b] = segments as [MssSegment, MssSegment];
    const fragment = mssFragment(a.video!, 7, [{ t: b.video!.t, d: b.video!.d }]);
    const types = boxes(fragment).map(([type]) => type);
    expect(types).toEqual(['moof', 'mfhd', 'traf', 'tfhd', 'tfdt', 'trun', 'uuid', 'uuid', 'mdat']);
    const [, tfdtAt] = boxes(fragment).find(([type]) => type === 'tfdt')!;
    expect(Number(fragment.readBigUInt64BE(tfdtAt + 12))).toBe(a.video!.t);
    // What dash.js builds from the manifest is an init on the same 100 ns clock: ffprobe reads both
    // fragments after one, every frame, on time.
    const second = mssFragment(b.video!, 8, []);
    const file = join(dir, 'video.mp4');
    writeFileSync(file, Buffer.concat([initSegment([{ ...a.video!.track, id: 1 }]), fragment, second]));
    const probe = spawnSync(
      'ffprobe',
      [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'packet=dts_time,flags',
        '-of',
        'json',
        file,
      ],
      { encoding: 'utf8' },
    );
    const packets = (JSON.parse(probe.stdout) as { packets: { dts_time: string; flags: string }[] }).packets;
    expect(probe.stderr).toBe('');
    expect(packets).toHaveLength(100);
    expect(packets[0]!.flags).toMatch(/^K/);
    const dts = packets.map((p) => Number(p.dts_time));
    expect(dts[50]! - dts[0]!).toBeCloseTo(2, 3);
  });
});

describe('Smooth Streaming manifest', () => {
  const chunks = [
    { t: 14_213_333, d: 20_000_000 },
    { t: 34_213_333, d: 20_000_000 },
  ];
  const manifest = mssManifest({
    video: { bitrate: 309000, width: 320, height: 180, codecPrivateData: '000000016742C01E', chunks },
    audio: { bitrate: 63000, sampleRate: 48000, channels: 2, codecPrivateData: '1190', chunks },
  });

  it('is a live SmoothStreamingMedia: IsLive, Duration 0, the window, 100 ns, one quality level a track', () => {
    const root = /<SmoothStreamingMedia ([^>]*)>/.exec(manifest)![1]!;
    const attrs = Object.fromEntries([...root.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    expect(attrs).toMatchObject({
      MajorVersion: '2',
      MinorVersion: '2',
      TimeScale: '10000000',
      Duration: '0',
      IsLive: 'TRUE',
      LookAheadFragmentCount: '2',
      DVRWindowLength: '40000000',
    });
    expect(manifest).toContain('Url="QualityLevels({bitrate})/Fragments(video={start time})"');
    expect(manifest).toContain('FourCC="AVC1"');
    expect(manifest).toContain('FourCC="AACL" SamplingRate="48000" Channels="2"');
    expect(manifest.match(/<c t="\d+" d="\d+"\/>/g)).toHaveLength(4);
    // Well formed: every element opened is closed, in order.
    const stack: string[] = [];
    for (const [, close, name, self] of manifest.matchAll(/<(\/?)(\w+)[^>]*?(\/?)>/g)) {
      if (close) expect(stack.pop()).toBe(name);
      else if (!self) stack.push(name!);
    }
    expect(stack).toEqual([]);
  });

  it('refuses CodecPrivateData that is not hex (nothing unescaped goes into an attribute)', () => {
    expect(() =>
      mssManifest({ audio: { bitrate: 1, sampleRate: 1, channels: 1, codecPrivateData: '"/><x', chunks } }),
    ).toThrow(/hex/);
  });
});
