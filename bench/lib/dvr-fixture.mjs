// Archives on disk for the DVR bench, in the recorder's layout (packages/server/src/dvr/layout.ts):
// ROOT/NAME/YYYY/MM/DD/HH/START-DURATION.ts, UTC hour folders, START in ms since epoch. Real 2 Mbit/s
// MPEG-TS segments cut by ffmpeg; a day of them made cheaply as hard links to one file.
import { spawnSync } from 'node:child_process';
import { copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const pad = (n) => String(n).padStart(2, '0');

/** ROOT/NAME/YYYY/MM/DD/HH of a moment (UTC), as layout.ts's hourFolder. */
export function hourDir(streamDir, ms) {
  const d = new Date(ms);
  return join(
    streamDir,
    String(d.getUTCFullYear()),
    pad(d.getUTCMonth() + 1),
    pad(d.getUTCDate()),
    pad(d.getUTCHours()),
  );
}

export const segmentFile = (startMs, durationMs) => `${startMs}-${durationMs}.ts`;

/**
 * `seconds` of the clip looped, cut into ~2 s MPEG-TS segments without re-encoding (the clip has a
 * keyframe every 2 s): one continuous recording, timestamps running on across the loops, as the
 * live segmenter would have cut it. Returns the segments in order, each with its duration (ms) as
 * the segment muxer's list says (where the clip loops a segment holds 4 s); a last one under 1 s is left out.
 */
export function cutSegments(clip, clipSeconds, seconds, outDir) {
  mkdirSync(outDir, { recursive: true });
  const loops = Math.ceil(seconds / clipSeconds);
  const list = join(outDir, 'list.csv');
  const result = spawnSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
    ...['-stream_loop', String(loops), '-i', clip, '-t', String(seconds)],
    ...['-map', '0', '-c', 'copy', '-f', 'segment', '-segment_time', '2', '-segment_format', 'mpegts'],
    ...['-segment_list', list, '-segment_list_type', 'csv'],
    join(outDir, '%06d.ts'),
  ]);
  if (result.status !== 0) throw new Error(`ffmpeg segment: ${result.stderr}`);
  return readFileSync(list, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [file, start, end] = line.split(',');
      return { file: join(outDir, file), durationMs: Math.round((Number(end) - Number(start)) * 1000) };
    })
    .filter((segment) => segment.durationMs >= 1000);
}

/** Places segments ({file, durationMs}) end to end from `startMs` under ROOT/NAME, as hard links; returns their paths. */
export function placeSegments(streamDir, segments, startMs) {
  let madeDir = '';
  let at = startMs;
  return segments.map(({ file, durationMs }) => {
    const dir = hourDir(streamDir, at);
    if (dir !== madeDir) mkdirSync((madeDir = dir), { recursive: true });
    const path = join(dir, segmentFile(at, durationMs));
    linkSync(file, path);
    at += durationMs;
    return { path, startMs: at - durationMs, durationMs };
  });
}

/**
 * A day of 2 s segments (43,200 files) of stream NAME from `startMs`, every one a hard link to a
 * private copy of `segment` (ext4 allows 65,000 links to one file, so one copy per stream).
 */
export function buildDay(root, name, segment, startMs) {
  const streamDir = join(root, name);
  mkdirSync(streamDir, { recursive: true });
  const own = join(root, `.${name}.source`);
  copyFileSync(segment, own);
  placeSegments(streamDir, new Array(43_200).fill({ file: own, durationMs: 2000 }), startMs);
}

/** Files and their bytes under a folder (sizes, and blocks actually allocated). */
export function treeBytes(dir) {
  let files = 0;
  let bytes = 0;
  let allocated = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const s = statSync(p);
        files++;
        bytes += s.size;
        allocated += s.blocks * 512;
      }
    }
  };
  try {
    walk(dir);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  return { files, bytes, allocated };
}

/** Bytes a process caused to be sent to the block layer (/proc/PID/io write_bytes), all threads. */
export function writeBytes(pid) {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/write_bytes:\s+(\d+)/.exec(io)?.[1] ?? 0);
}

/** Median and 95th percentile of a list of numbers. */
export function medianP95(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p95: at(0.95) };
}
