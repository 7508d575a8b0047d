import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRandomAccess, PACKET_SIZE, PAT_PID, pidOf, startsUnit } from '../media/ts-packet.js';
import { openFfmpegSource } from './ffmpeg-source.js';
import type { VodSource } from './vod-source.js';

/**
 * Non-MP4 files made by ffmpeg (H.264 with B-frames, a keyframe every 2 s at 25 fps, two AAC tracks)
 * opened as VOD sources, and their segments read back by ffprobe and ffmpeg: what a player would
 * notice is a segment not starting at a keyframe, a frame twice or missing where two segments meet,
 * timestamps that jump, a decode error.
 */

const dir = mkdtempSync(join(tmpdir(), 'vod-ffmpeg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECONDS = 13;
const FPS = 25;

function ffmpeg(args: string[]): void {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args], { timeout: 120_000 });
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
}

/** FLV holds one audio track; the others get a second one, in French. */
function makeFile(name: string): string {
  const path = join(dir, name);
  const second = !name.endsWith('.flv');
  ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${FPS}`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=880:sample_rate=44100'],
    ...['-map', '0', '-map', '1', ...(second ? ['-map', '2'] : []), '-t', String(SECONDS)],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2', '-g', '50', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '96k', '-metadata:s:a:1', 'language=fra'],
    path,
  ]);
  return path;
}

interface Packet {
  stream_index: number;
  codec_type: 'video' | 'audio';
  pts: number;
  flags: string;
}

/** The packets of the first video and first audio track (streams 0 and 1 of every file here). */
function probePackets(path: string): Packet[] {
  const args = [
    '-v',
    'error',
    '-of',
    'json',
    '-show_entries',
    'packet=stream_index,codec_type,pts,flags',
    path,
  ];
  const result = spawnSync('ffprobe', args, { maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`ffprobe: ${result.stderr.toString()}`);
  return (JSON.parse(result.stdout.toString()) as { packets: Packet[] }).packets.filter(
    (p) => p.stream_index <= 1,
  );
}

/** ffmpeg decoding a file to nothing: its error output, empty when every frame decoded. */
function decodeErrors(path: string): string {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 'null', '-'], { timeout: 60_000 });
  return `${result.stderr.toString()}${result.status === 0 ? '' : `exit ${result.status}`}`;
}

function firstPes(ts: Buffer): { pid: number; randomAccess: boolean } | undefined {
  for (let o = 0; o + PACKET_SIZE <= ts.length; o += PACKET_SIZE) {
    const pid = pidOf(ts, o);
    if (pid >= 0x100 && pid < 0x1000 && startsUnit(ts, o))
      return { pid, randomAccess: isRandomAccess(ts, o) };
  }
  return undefined;
}

const ptsOf = (list: Packet[], type: Packet['codec_type']) =>
  list.filter((p) => p.codec_type === type).map((p) => p.pts);

for (const ext of ['ts', 'mkv', 'flv']) {
  describe(`a .${ext} file as a VOD source`, () => {
    let path: string;
    let source: VodSource;
    beforeAll(async () => {
      path = makeFile(`clip.${ext}`);
      source = await openFfmpegSource(path);
    }, 120_000);

    it('lists its H.264 and AAC tracks with codec strings, picture size, rate and language', () => {
      const video = source.tracks.find((t) => t.content === 'video')!;
      expect(video).toMatchObject({ codec: 'avc1.64000d', width: 320, height: 240, fps: 25 });
      expect(video.bitrate).toBeGreaterThan(10_000);
      const audio = source.tracks.filter((t) => t.content === 'audio');
      // FLV holds one audio track.
      expect(audio.length).toBe(ext === 'flv' ? 1 : 2);
      expect(audio[0]).toMatchObject({ codec: 'mp4a.40.2', channels: 1, sample_rate: 48_000 });
      if (ext !== 'flv') expect(audio[1]).toMatchObject({ lang: 'fra', sample_rate: 44_100 });
      expect(source.durationS).toBeCloseTo(SECONDS, 0);
    });

    it('is cut at keyframes into segments of 4 s that cover the whole file', () => {
      expect(source.segments.map((s) => Math.round(s.startS))).toEqual([0, 4, 8, 12]);
      const total = source.segments.reduce((n, s) => n + s.durationS, 0);
      expect(total).toBeCloseTo(source.durationS, 3);
    });

    it('gives each segment as MPEG-TS: PAT first, the keyframe first, PTS from 10 s at its start', async () => {
      for (const [i, segment] of source.segments.entries()) {
        const ts = await source.tsSegment(i);
        expect(pidOf(ts, 0)).toBe(PAT_PID);
        expect(ts.length % PACKET_SIZE).toBe(0);
        const file = join(dir, `${ext}-${i}.ts`);
        writeFileSync(file, ts);
        // The first PES in the bytes: video (ffmpeg's first PID), a random access point.
        const first = firstPes(ts);
        expect(first).toEqual({ pid: 0x100, randomAccess: true });
        const packets = probePackets(file);
        const video = ptsOf(packets, 'video');
        // The first keyframe of an MKV is a frame (21 ms, muxer's rounding) after the file's start.
        expect(Math.min(...video) / 90_000 - 10).toBeCloseTo(segment.startS, 1);
        // Nothing presented before the keyframe it starts with.
        const keyframes = packets.filter((p) => p.codec_type === 'video' && p.flags.startsWith('K'));
        expect(Math.min(...keyframes.map((p) => p.pts))).toBe(Math.min(...video));
      }
    }, 60_000);

    it('concatenates into one stream with every frame once, continuous time and no decode error', async () => {
      const parts = await Promise.all(source.segments.map((_, i) => source.tsSegment(i)));
      const joined = join(dir, `${ext}-joined.ts`);
      writeFileSync(joined, Buffer.concat(parts));
      expect(decodeErrors(joined)).toBe('');
      const packets = probePackets(joined);
      const video = ptsOf(packets, 'video').sort((a, b) => a - b);
      expect(video).toHaveLength(SECONDS * FPS);
      // Each frame once, 40 ms (3600 ticks) apart: no frame twice, none missing where segments meet.
      for (let n = 1; n < video.length; n++) expect(video[n]! - video[n - 1]!).toBe(3600);
      const audio = ptsOf(packets, 'audio');
      const original = ptsOf(probePackets(path), 'audio');
      expect(audio.length).toBe(original.length);
      expect(new Set(audio).size).toBe(audio.length);
    }, 60_000);

    if (ext !== 'flv')
      it('gives a segment with the second audio track when asked for it', async () => {
        const second = source.tracks.filter((t) => t.content === 'audio')[1]!;
        const file = join(dir, `${ext}-fra.ts`);
        writeFileSync(file, await source.tsSegment(1, [second.id]));
        const result = spawnSync('ffprobe', ['-v', 'error', '-of', 'json', '-show_streams', file]);
        const streams = (JSON.parse(result.stdout.toString()) as { streams: { sample_rate: string }[] })
          .streams;
        expect(streams.map((s) => s.sample_rate)).toEqual(['44100']);
      });

    it('refuses a segment it does not have, naming the file', async () => {
      await expect(source.tsSegment(source.segments.length)).rejects.toThrow(path);
      await expect(source.tsSegment(0, [99])).rejects.toThrow(/no track 99/);
    });
  });
}

describe('HEVC video and audio-only files', () => {
  const cases = [
    {
      name: 'hevc.mkv',
      encode: [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=320x240:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=sample_rate=48000',
      ],
      codecs: [
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-x265-params',
        'bframes=2:keyint=50:log-level=error',
      ],
      expected: [/^hvc1\.1\.6\.L\d+/, /^mp4a\.40\.2$/],
    },
    {
      name: 'tone.mkv',
      encode: ['-f', 'lavfi', '-i', 'sine=sample_rate=44100'],
      codecs: ['-c:a', 'libmp3lame'],
      expected: [/^mp4a\.40\.34$/],
    },
  ];
  for (const c of cases)
    it(`${c.name}: its tracks, segments that concatenate with every frame once and no decode error`, async () => {
      const path = join(dir, c.name);
      ffmpeg([...c.encode, '-t', '10', ...c.codecs, ...(c.name === 'hevc.mkv' ? ['-c:a', 'aac'] : []), path]);
      const source = await openFfmpegSource(path);
      expect(source.tracks.map((t) => t.codec)).toEqual(c.expected.map((e) => expect.stringMatching(e)));
      expect(source.tracks.every((t) => t.bitrate > 0)).toBe(true);
      expect(source.segments.map((s) => Math.round(s.startS))).toEqual([0, 4, 8]);
      const joined = join(dir, `${c.name}-joined.ts`);
      writeFileSync(
        joined,
        Buffer.concat(await Promise.all(source.segments.map((_, i) => source.tsSegment(i)))),
      );
      expect(decodeErrors(joined)).toBe('');
      const count = (list: Packet[]) => [ptsOf(list, 'video').length, ptsOf(list, 'audio').length];
      expect(count(probePackets(joined))).toEqual(count(probePackets(path)));
    }, 120_000);
});

describe('files that are not media', () => {
  it('rejects random bytes, an empty file and a cut-off MKV header with an Error naming the file', async () => {
    const junk = join(dir, 'junk.ts');
    writeFileSync(junk, Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251)));
    const empty = join(dir, 'empty.mkv');
    writeFileSync(empty, Buffer.alloc(0));
    const cut = join(dir, 'cut.mkv');
    writeFileSync(cut, readFileSync(makeFile('whole.mkv')).subarray(0, 600));
    for (const path of [junk, empty, cut, join(dir, 'missing.ts')])
      await expect(openFfmpegSource(path), path).rejects.toThrow(path);
  }, 60_000);

  it('reads a truncated MPEG-TS up to where it stops', async () => {
    const whole = readFileSync(join(dir, 'clip.ts'));
    const half = join(dir, 'half.ts');
    writeFileSync(half, whole.subarray(0, Math.floor(whole.length / 2 / PACKET_SIZE) * PACKET_SIZE + 77));
    const source = await openFfmpegSource(half);
    expect(source.durationS).toBeLessThan(SECONDS - 3);
    const last = source.segments.length - 1;
    const file = join(dir, 'half-last.ts');
    writeFileSync(file, await source.tsSegment(last));
    expect(probePackets(file).length).toBeGreaterThan(0);
  }, 60_000);
});
