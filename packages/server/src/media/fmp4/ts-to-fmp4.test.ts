import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsFileToFmp4 } from './ts-file-to-fmp4.js';
import { tsToFmp4 } from './ts-to-fmp4.js';

/**
 * The remuxer against ffmpeg: segments cut by ffmpeg's segment muxer the way the live segmenter cuts
 * them (each opens with PAT/PMT and a keyframe), remuxed, then read back by ffprobe and decoded by
 * ffmpeg. What a player would notice: a frame missing, a wrong time, a keyframe flag lost, a gap
 * between fragments, a decode error.
 */

const dir = mkdtempSync(join(tmpdir(), 'fmp4-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two 2-second TS segments: 25 fps with B-frames, a keyframe each second, 44.1 kHz AAC. */
function makeSegments(name: string, video: string[], audio = true): Buffer[] {
  const args = [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440', '-c:a', 'aac'] : []),
    ...['-t', '4', ...video, '-g', '25', '-pix_fmt', 'yuv420p'],
    ...['-f', 'segment', '-segment_time', '2', '-segment_format', 'mpegts', join(dir, `${name}%d.ts`)],
  ];
  const result = spawnSync('ffmpeg', args, { timeout: 60_000 });
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
  return [0, 1].map((i) => readFileSync(join(dir, `${name}${i}.ts`)));
}

interface Packet {
  codec_type: 'video' | 'audio';
  pts: number;
  dts: number;
  pts_time: string;
  duration: number;
  flags: string;
}

function packets(bytes: Buffer, name: string): Packet[] {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const result = spawnSync('ffprobe', ['-v', 'error', '-of', 'json', '-show_packets', file], {
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`ffprobe: ${result.stderr.toString()}`);
  return (JSON.parse(result.stdout.toString()) as { packets: Packet[] }).packets;
}

/** ffmpeg decoding a file to nothing: its error output, empty when every frame decoded. */
function decodeErrors(bytes: Buffer, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const result = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { timeout: 60_000 });
  return `${result.stderr.toString()}${result.status === 0 ? '' : `exit ${result.status}`}`;
}

/** The MD5 of each decoded picture, in order (ffmpeg's framemd5 without its timestamps). */
function pictureHashes(file: string): string[] {
  const args = ['-v', 'error', '-i', join(dir, file), '-map', '0:v', '-f', 'framemd5', '-'];
  const result = spawnSync('ffmpeg', args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  const lines = result.stdout.toString().split('\n');
  return lines.filter((l) => l && !l.startsWith('#')).map((l) => l.split(',').pop()!.trim());
}

const of = (list: Packet[], type: Packet['codec_type']) => list.filter((p) => p.codec_type === type);
const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

for (const codec of ['h264', 'hevc'] as const) {
  describe(`${codec} + AAC segment to CMAF`, () => {
    let segments: Buffer[];
    const encoder =
      codec === 'h264'
        ? ['-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2']
        : ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'bframes=2:log-level=error'];
    beforeAll(() => {
      segments = makeSegments(codec, encoder);
    }, 60_000);

    it('keeps every frame with its TS timestamps, keyframe flags and durations', () => {
      const out = tsToFmp4(segments[0]!);
      expect(out.codecs[0]).toMatch(codec === 'h264' ? /^avc1\.64/ : /^hvc1\.1\./);
      expect(out.codecs[1]).toBe('mp4a.40.2');
      const ts = packets(segments[0]!, `${codec}-0.ts`);
      const mp4 = packets(Buffer.concat([out.init, out.fragment]), `${codec}-0.mp4`);
      const [tsVideo, mp4Video] = [of(ts, 'video'), of(mp4, 'video')];
      expect(mp4Video.length).toBe(tsVideo.length);
      // The video track runs on the TS clock (90 kHz): the same numbers, frame by frame.
      expect(mp4Video.map((p) => [p.pts, p.dts, p.flags[0]])).toEqual(
        tsVideo.map((p) => [p.pts, p.dts, p.flags[0]]),
      );
      expect(mp4Video.map((p) => p.duration)).toEqual(tsVideo.map(() => 3600));
      // The same pictures come out of the decoder: no NAL unit lost or damaged on the way.
      const pictures = pictureHashes(`${codec}-0.ts`);
      expect(pictures).toHaveLength(tsVideo.length);
      expect(pictureHashes(`${codec}-0.mp4`)).toEqual(pictures);
      // B-frames: shown in another order than decoded, so the offsets must have come through.
      expect(mp4Video.some((p, i) => i > 0 && p.pts < mp4Video[i - 1]!.pts)).toBe(true);
      const [tsAudio, mp4Audio] = [of(ts, 'audio'), of(mp4, 'audio')];
      expect(mp4Audio.length).toBe(tsAudio.length);
      const offBy = mp4Audio.map((p, i) => Math.abs(Number(p.pts_time) - Number(tsAudio[i]!.pts_time)));
      expect(Math.max(...offBy)).toBeLessThan(0.0005);
      // ffprobe shows no duration for an MP4's first AAC packet (ffmpeg's own fMP4 neither).
      expect(mp4Audio.slice(1).map((p) => p.duration)).toEqual(mp4Audio.slice(1).map(() => 1024));
    });

    it('plays two consecutive fragments after one init back to back with no decode error', () => {
      const [first, second] = segments.map((s) => tsToFmp4(s));
      // Same codec parameters: the same init, so a live playlist names one EXT-X-MAP.
      expect(second!.init.equals(first!.init)).toBe(true);
      const file = Buffer.concat([first!.init, first!.fragment, second!.fragment]);
      expect(decodeErrors(file, `${codec}-both.mp4`)).toBe('');
      const video = of(packets(file, `${codec}-both.mp4`), 'video');
      const tsCount = sum(segments.map((s, i) => of(packets(s, `${codec}-c${i}.ts`), 'video').length));
      expect(video.length).toBe(tsCount);
      // Decode times step one frame at a time across the fragment boundary: no gap, no overlap.
      const steps = new Set(video.slice(1).map((p, i) => p.dts - video[i]!.dts));
      expect([...steps]).toEqual([3600]);
      expect(second!.startDts90k).toBe(first!.endDts90k);
    });
  });
}

/**
 * A segment split at its `unit`-th video access unit, as the live segmenter cuts a GOP longer than
 * its target: the second part gets the tables (ffmpeg writes SDT, PAT and PMT first) and no SPS/PPS.
 */
function cutInsideGop(ts: Buffer, unit: number): [Buffer, Buffer] {
  const packet = (i: number) => ts.subarray(i * 188, i * 188 + 188);
  const pid = (i: number) => ((packet(i)[1]! & 0x1f) << 8) | packet(i)[2]!;
  const count = ts.length / 188;
  let seen = 0;
  let at = 0;
  for (let i = 0; i < count && !at; i++)
    if (pid(i) === 0x100 && packet(i)[1]! & 0x40 && seen++ === unit) at = i;
  const tables = [0, 1, 2].map(packet);
  return [ts.subarray(0, at * 188), Buffer.concat([...tables, ts.subarray(at * 188)])];
}

describe('CMAF fragment details', () => {
  let segments: Buffer[];
  beforeAll(() => {
    segments = makeSegments('h264-noaudio', ['-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2'], false);
  }, 60_000);

  it('writes composition offsets as signed (trun version 1) and no ADTS or AUD bytes', () => {
    const out = tsToFmp4(segments[0]!, { sequence: 7 });
    const trun = out.fragment.indexOf('trun');
    expect(out.fragment[trun + 4]).toBe(1);
    expect(out.codecs).toHaveLength(1);
    // mfhd carries the sequence number given: the playlist's media sequence.
    const mfhd = out.fragment.indexOf('mfhd');
    expect(out.fragment.readUInt32BE(mfhd + 8)).toBe(7);
    // An access unit delimiter (00 00 00 02 09 xx) is what an MPEG-TS H.264 stream starts each frame with.
    expect(out.fragment.includes(Buffer.from([0, 0, 0, 2, 0x09, 0xf0]))).toBe(false);
  });

  it('continues decode times across the 33-bit wrap of the TS clock', () => {
    const first = tsToFmp4(segments[0]!);
    const wrapped = tsToFmp4(segments[1]!, { nearDts90k: first.endDts90k + 2 ** 33 });
    expect(wrapped.startDts90k).toBe(first.endDts90k + 2 ** 33);
    const video = of(packets(Buffer.concat([wrapped.init, wrapped.fragment]), 'wrap.mp4'), 'video');
    expect(Math.min(...video.map((p) => p.dts))).toBe(first.endDts90k + 2 ** 33);
  });

  it('remuxes a segment cut inside a GOP with the parameter sets of the segment before', () => {
    const [a, b] = cutInsideGop(segments[0]!, 30);
    expect(() => tsToFmp4(b)).toThrow(/no h264 parameter sets/);
    const first = tsToFmp4(a);
    const second = tsToFmp4(b, { parameterSets: first.parameterSets, nearDts90k: first.endDts90k });
    expect(second.init.equals(first.init)).toBe(true);
    writeFileSync(join(dir, 'gop.ts'), segments[0]!);
    const file = Buffer.concat([first.init, first.fragment, second.fragment]);
    expect(decodeErrors(file, 'gop.mp4')).toBe('');
    expect(pictureHashes('gop.mp4')).toEqual(pictureHashes('gop.ts'));
  });

  it('remuxes an archive file cut inside a GOP with the SPS/PPS of the files before it', async () => {
    const [a, b] = cutInsideGop(segments[0]!, 30);
    const files = ['a.ts', 'b.ts'].map((name) => join(dir, name));
    writeFileSync(files[0]!, a);
    writeFileSync(files[1]!, b);
    await expect(tsFileToFmp4(files[1]!)).rejects.toThrow(/no h264 parameter sets/);
    const first = await tsFileToFmp4(files[0]!);
    const second = await tsFileToFmp4(files[1]!, { before: [files[0]!] });
    expect(second.initId).toBe(first.initId);
    expect(decodeErrors(Buffer.concat([first.init, first.fragment, second.fragment]), 'files.mp4')).toBe('');
  });

  it('makes an audio-only segment one AAC track on its sample rate', () => {
    const file = join(dir, 'audio.ts');
    const args = [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=sample_rate=48000',
      '-t',
      '1',
      '-c:a',
      'aac',
      file,
    ];
    expect(spawnSync('ffmpeg', args, { timeout: 60_000 }).status).toBe(0);
    const out = tsToFmp4(readFileSync(file));
    expect(out.codecs).toEqual(['mp4a.40.2']);
    const audio = of(packets(Buffer.concat([out.init, out.fragment]), 'audio.mp4'), 'audio');
    expect(audio.length).toBe(of(packets(readFileSync(file), 'audio-again.ts'), 'audio').length);
    expect(decodeErrors(Buffer.concat([out.init, out.fragment]), 'audio-decode.mp4')).toBe('');
    // One frame is 1024 samples at 48 kHz: 1920 ticks of 90 kHz.
    expect(out.endDts90k - out.startDts90k).toBe(audio.length * 1920);
  });

  it('refuses bytes that are not an MPEG-TS segment with a reason', () => {
    expect(() => tsToFmp4(Buffer.from('not a transport stream'))).toThrow(/no H\.264, HEVC or AAC/);
  });
});
