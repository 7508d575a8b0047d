import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { segmentPath } from '../src/dvr/layout.js';

export interface FixtureArchive {
  /** ROOT/NAME */
  dir: string;
  /** The archive's first moment, ms since epoch. */
  startMs: number;
  segmentMs: number;
  /** Segments before the gap, the gap's length, segments after it (the first one flagged `d`). */
  before: number;
  gapMs: number;
  after: number;
  width: number;
  height: number;
}

/**
 * A real archive as the recorder lays it out: ffmpeg's testsrc2 with a tone (H.264 with a keyframe
 * every second, AAC) cut by the segment muxer into 2 s MPEG-TS files that each open with a keyframe,
 * renamed into ROOT/NAME/YYYY/MM/DD/HH/START-DURATION[d].ts, with a gap (an outage) in the middle.
 */
export async function makeFixtureArchive(
  root: string,
  name: string,
  options: { startMs: number; before?: number; gapMs?: number; after?: number },
): Promise<FixtureArchive> {
  const before = options.before ?? 5;
  const after = options.after ?? 5;
  const gapMs = options.gapMs ?? 30_000;
  const segmentMs = 2000;
  const [width, height] = [320, 240];
  const work = await mkdtemp(join(tmpdir(), 'dvr-fixture-'));
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', String(((before + after) * segmentMs) / 1000)],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-bf', '0'],
      ...['-c:a', 'aac', '-b:a', '64k'],
      ...['-f', 'segment', '-segment_time', String(segmentMs / 1000), '-segment_format', 'mpegts'],
      join(work, '%03d.ts'),
    ],
    { timeout: 60_000 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg fixture: ${result.stderr?.toString()}`);
  const files = (await readdir(work)).filter((f) => f.endsWith('.ts')).sort();
  if (files.length !== before + after) throw new Error(`fixture: ${files.length} segments made`);
  const dir = join(root, ...name.split('/'));
  for (const [i, file] of files.entries()) {
    const startMs = options.startMs + i * segmentMs + (i >= before ? gapMs : 0);
    const path = segmentPath(dir, { startMs, durationMs: segmentMs, discontinuity: i === before });
    await mkdir(dirname(path), { recursive: true });
    await rename(join(work, file), path);
  }
  await rm(work, { recursive: true, force: true });
  return { dir, startMs: options.startMs, segmentMs, before, gapMs, after, width, height };
}

/** ffprobe's view of a file or URL: format duration (s) and the streams' codecs and sizes. */
export function probe(input: string): {
  durationS: number;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  formatName: string;
} {
  const result = spawnSync(
    'ffprobe',
    ['-hide_banner', '-loglevel', 'error', '-of', 'json', '-show_format', '-show_streams', '-i', input],
    { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`ffprobe ${input}: ${result.stderr?.toString()}`);
  const json = JSON.parse(result.stdout.toString()) as {
    format: { duration: string; format_name: string };
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  };
  return {
    durationS: Number(json.format.duration),
    streams: json.streams,
    formatName: json.format.format_name,
  };
}
