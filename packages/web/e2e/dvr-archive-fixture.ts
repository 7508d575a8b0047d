import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { segmentPath } from '../../server/src/dvr/layout.js';

const SEGMENT_MS = 2000;

/** Where each run of the archive lies, in ms since epoch (end exclusive). */
export interface ArchiveRun {
  startMs: number;
  endMs: number;
}

/**
 * A real archive on disk as the recorder lays it out (packages/server/src/dvr/layout.ts): ffmpeg's
 * testsrc2 with a tone (H.264, a keyframe each second, AAC) cut into 2 s MPEG-TS files, each opening
 * with a keyframe, renamed to ROOT/NAME/YYYY/MM/DD/HH/START-DURATION[d].ts. One run of segments per
 * entry of `runStartsMs`; the first segment after a gap is flagged `d`.
 */
export async function writeArchive(
  root: string,
  name: string,
  runStartsMs: number[],
  segmentsPerRun: number,
): Promise<ArchiveRun[]> {
  const work = await mkdtemp(join(tmpdir(), 'sluice-e2e-dvr-segments-'));
  const total = runStartsMs.length * segmentsPerRun;
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', String((total * SEGMENT_MS) / 1000)],
      // A keyframe every second and no B-frames: every 2 s segment opens with one.
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-bf', '0'],
      ...['-c:a', 'aac', '-b:a', '64k'],
      ...['-f', 'segment', '-segment_time', String(SEGMENT_MS / 1000), '-segment_format', 'mpegts'],
      join(work, '%03d.ts'),
    ],
    { timeout: 60_000 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg archive fixture: ${result.stderr.toString()}`);
  const files = (await readdir(work)).filter((f) => f.endsWith('.ts')).sort();
  if (files.length !== total)
    throw new Error(`archive fixture: ffmpeg made ${files.length} of ${total} segments`);
  const dir = join(root, ...name.split('/'));
  for (const [i, file] of files.entries()) {
    const run = Math.floor(i / segmentsPerRun);
    const inRun = i % segmentsPerRun;
    const startMs = (runStartsMs[run] ?? 0) + inRun * SEGMENT_MS;
    const path = segmentPath(dir, { startMs, durationMs: SEGMENT_MS, discontinuity: run > 0 && inRun === 0 });
    await mkdir(dirname(path), { recursive: true });
    await rename(join(work, file), path);
  }
  await rm(work, { recursive: true, force: true });
  return runStartsMs.map((startMs) => ({ startMs, endMs: startMs + segmentsPerRun * SEGMENT_MS }));
}
