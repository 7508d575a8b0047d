import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  keyframeTimes,
  makeMp4,
  type Mp4FileOptions,
  packets,
  probeDurationS,
  run,
  startTimes,
  streamCodecs,
  widenTo64Bit,
  writeAllSegments,
} from '../../test/mp4-fixtures.js';
import { openMp4Source } from './mp4-source.js';
import { VOD_PTS_OFFSET_S, VOD_SEGMENT_TARGET_S, type VodSource } from './vod-source.js';

const FRAME_S = 1 / 25;

/** Where segments should start: the first keyframe at or after the target from the last start. */
function expectedStarts(keyframesS: number[]): number[] {
  const starts = [0];
  let from = keyframesS[0]!;
  for (const t of keyframesS) {
    if (t >= from + VOD_SEGMENT_TARGET_S - 0.001) {
      starts.push(t);
      from = t;
    }
  }
  return starts;
}

/** Consecutive differences of sorted times. */
function steps(times: number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.slice(1).map((t, i) => t - sorted[i]!);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sluice-mp4-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files: [string, string, Mp4FileOptions][] = [
  [
    'H.264 with B-frames and two audio tracks, moov at the end',
    'bframes.mp4',
    {
      seconds: 10,
      video: 'h264',
      bFrames: 2,
      gop: 35,
      audio: [{ sampleRate: 44100 }, { sampleRate: 48000, lang: 'fra' }],
    },
  ],
  [
    'H.264 with +faststart (moov first)',
    'faststart.mp4',
    { seconds: 9, video: 'h264', gop: 50, audio: [{ sampleRate: 48000 }], faststart: true },
  ],
  [
    'HEVC (libx265) with B-frames',
    'hevc.mp4',
    { seconds: 9, video: 'hevc', bFrames: 2, gop: 30, audio: [{ sampleRate: 44100 }] },
  ],
  [
    'audio starting a second late (an empty edit)',
    'late-audio.mp4',
    { seconds: 6, video: 'h264', bFrames: 2, audio: [{ sampleRate: 44100 }], audioDelayS: 1 },
  ],
  [
    'a QuickTime .mov',
    'clip.mov',
    { seconds: 6, video: 'h264', gop: 25, audio: [{ sampleRate: 44100 }], format: 'mov' },
  ],
];

describe.each(files)('MP4 reader: %s', (_label, name, options) => {
  let path: string;
  let source: VodSource;
  let allTs: string;
  beforeAll(async () => {
    path = makeMp4(dir, name, options);
    source = await openMp4Source(path);
    allTs = join(dir, `${name}.all.ts`);
    await writeAllSegments(source, allTs);
  }, 60_000);
  afterAll(() => source?.close());

  it('cuts segments at the first keyframe at or after the target, as ffprobe sees the keyframes', () => {
    const starts = source.segments.map((s) => s.startS);
    const expected = expectedStarts(keyframeTimes(path));
    expect(starts.length).toBe(expected.length);
    starts.forEach((s, i) => expect(s).toBeCloseTo(expected[i]!, 3));
  });

  it('has segment durations that add up to the file duration', () => {
    const sum = source.segments.reduce((n, s) => n + s.durationS, 0);
    expect(Math.abs(sum - probeDurationS(path))).toBeLessThan(0.1);
    expect(Math.abs(source.durationS - probeDurationS(path))).toBeLessThan(0.1);
  });

  it('describes its tracks like ffprobe does', () => {
    const video = source.tracks.find((t) => t.content === 'video')!;
    expect(video.codec).toMatch(options.video === 'hevc' ? /^hvc1\.1\.6\.L\d+/ : /^avc1\.[0-9a-f]{6}$/);
    expect([video.width, video.height, video.fps]).toEqual([320, 240, 25]);
    expect(video.bitrate).toBeGreaterThan(10_000);
    const audio = source.tracks.filter((t) => t.content === 'audio');
    expect(audio.map((a) => [a.codec, a.sample_rate, a.channels, a.lang])).toEqual(
      options.audio!.map((a) => ['mp4a.40.2', a.sampleRate, 1, a.lang]),
    );
  });

  it('makes MPEG-TS segments ffprobe reads, each starting with the tables and a keyframe', async () => {
    for (let i = 0; i < source.segments.length; i++) {
      const ts = await source.tsSegment(i);
      expect(ts.length % 188).toBe(0);
      expect(ts.readUInt16BE(1) & 0x1fff).toBe(0); // the PAT first
      const segmentPath = join(dir, `${name}.${i}.ts`);
      writeFileSync(segmentPath, ts);
      const codecs = streamCodecs(segmentPath).map((c) => c.split(',')[0]);
      expect(codecs).toEqual([options.video === 'hevc' ? 'hevc' : 'h264', 'aac']);
      const first = packets(segmentPath, 'v:0')[0]!;
      expect(first.key).toBe(true);
      expect(first.ptsS).toBeCloseTo(source.segments[i]!.startS + VOD_PTS_OFFSET_S, 1);
    }
  });

  it('plays its segments one after the other without an error, a gap or a repeated frame', () => {
    expect(run('ffmpeg', ['-v', 'error', '-i', allTs, '-f', 'null', '-']).trim()).toBe('');
    expect(Math.abs(probeDurationS(allTs) - probeDurationS(path))).toBeLessThan(0.1);
    // Edit lists honoured: video starts where ffprobe says, audio as far from it as in ffmpeg's own
    // remux to MPEG-TS (which keeps AAC's priming frame, 1024 samples before the video, as we do).
    const reference = join(dir, `${name}.ffmpeg.ts`);
    run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      path,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0',
      '-c',
      'copy',
      reference,
    ]);
    const [ours, theirs] = [startTimes(allTs), startTimes(reference)];
    expect(ours[0]! - VOD_PTS_OFFSET_S).toBeCloseTo(startTimes(path)[0]!, 3);
    expect(ours[1]! - ours[0]!).toBeCloseTo(theirs[1]! - theirs[0]!, 3);
    const video = packets(allTs, 'v:0').map((p) => p.ptsS);
    expect(Math.min(...video)).toBeCloseTo(VOD_PTS_OFFSET_S, 2);
    for (const step of steps(video)) expect(step).toBeCloseTo(FRAME_S, 3);
    const frameS = 1024 / options.audio![0]!.sampleRate;
    for (const step of steps(packets(allTs, 'a:0').map((p) => p.ptsS))) expect(step).toBeCloseTo(frameS, 3);
  });
});

describe('MP4 reader: track choice and audio-only files', () => {
  it('serves one chosen audio track alone (an HLS audio rendition), continuous across segments', async () => {
    const path = makeMp4(dir, 'two-audio.mp4', {
      seconds: 9,
      video: 'h264',
      audio: [{ sampleRate: 44100 }, { sampleRate: 48000, lang: 'fra' }],
    });
    const source = await openMp4Source(path);
    const french = source.tracks.find((t) => t.lang === 'fra')!;
    const out = join(dir, 'french.ts');
    await writeAllSegments(source, out, [french.id]);
    expect(streamCodecs(out)).toEqual(['aac,48000']);
    expect(run('ffmpeg', ['-v', 'error', '-i', out, '-f', 'null', '-']).trim()).toBe('');
    for (const step of steps(packets(out, 'a:0').map((p) => p.ptsS)))
      expect(step).toBeCloseTo(1024 / 48000, 3);
    await expect(source.tsSegment(0, [french.id, french.id - 1])).rejects.toThrow(/one audio track/);
    await expect(source.tsSegment(0, [99])).rejects.toThrow(/no playable track 99/);
    source.close();
  });

  it('cuts an audio-only file every target length', async () => {
    const path = makeMp4(dir, 'audio.m4a', { seconds: 10, audio: [{ sampleRate: 44100 }] });
    const source = await openMp4Source(path);
    expect(source.tracks.map((t) => t.content)).toEqual(['audio']);
    const durations = source.segments.map((s) => s.durationS);
    expect(durations.length).toBe(3);
    durations.slice(0, -1).forEach((d) => expect(Math.abs(d - VOD_SEGMENT_TARGET_S)).toBeLessThan(0.03));
    const out = join(dir, 'audio.ts');
    await writeAllSegments(source, out);
    expect(run('ffmpeg', ['-v', 'error', '-i', out, '-f', 'null', '-']).trim()).toBe('');
    expect(Math.abs(probeDurationS(out) - probeDurationS(path))).toBeLessThan(0.1);
    source.close();
  });

  it('reads 64-bit box sizes and chunk offsets (co64) as a file past 4 GB has them', async () => {
    const path = makeMp4(dir, 'narrow.mp4', { seconds: 6, video: 'h264', audio: [{ sampleRate: 44100 }] });
    const widePath = join(dir, 'wide.mp4');
    const wideBytes = widenTo64Bit(readFileSync(path));
    expect([wideBytes.includes('co64'), wideBytes.includes('stco')]).toEqual([true, false]);
    writeFileSync(widePath, wideBytes);
    expect(streamCodecs(widePath)).toEqual(['h264', 'aac,44100']); // ffprobe reads it too
    const [narrow, wide] = [await openMp4Source(path), await openMp4Source(widePath)];
    expect(wide.segments).toEqual(narrow.segments);
    for (let i = 0; i < narrow.segments.length; i++) {
      expect((await wide.tsSegment(i)).equals(await narrow.tsSegment(i))).toBe(true);
    }
    narrow.close();
    wide.close();
  });

  it('reads segments again after close(), reopening the file', async () => {
    const path = makeMp4(dir, 'reopen.mp4', { seconds: 5, video: 'h264', audio: [{ sampleRate: 44100 }] });
    const source = await openMp4Source(path);
    const before = await source.tsSegment(0);
    const reading = source.tsSegment(1);
    source.close(); // while a read is under way: it finishes
    await expect(reading).resolves.toBeInstanceOf(Buffer);
    expect((await source.tsSegment(0)).equals(before)).toBe(true);
    source.close();
  });
});
