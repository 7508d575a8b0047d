import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { StreamStats } from '@sluice/api';
import type { RunningServer } from './harness.js';
import { streamStats } from './media-helpers.js';

export interface FileOnDisk {
  /** Relative to the folder listed, `/`-separated. */
  path: string;
  name: string;
}

/** Every file under `dir` (recursively), sorted by path; none when the folder does not exist. */
export async function filesUnder(dir: string): Promise<FileOnDisk[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => ({ path: relative(dir, join(e.parentPath, e.name)), name: e.name }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** The DVR layout: YYYY/MM/DD/HH/START-DURATION[d].ts, START in ms since epoch (dvr/layout.ts). */
export const SEGMENT_PATH = /^(\d{4})\/(\d{2})\/(\d{2})\/(\d{2})\/(\d{13})-(\d+)(d?)\.ts$/;

export interface RecordedSegment {
  path: string;
  startMs: number;
  durationMs: number;
  discontinuity: boolean;
}

/** The archive's segment files of one stream folder, oldest first. */
export async function recordedSegments(streamDir: string): Promise<RecordedSegment[]> {
  const segments: RecordedSegment[] = [];
  for (const file of await filesUnder(streamDir)) {
    const match = SEGMENT_PATH.exec(file.path);
    if (!match) continue;
    segments.push({
      path: file.path,
      startMs: Number(match[5]),
      durationMs: Number(match[6]),
      discontinuity: match[7] === 'd',
    });
  }
  return segments.sort((a, b) => a.startMs - b.startMs);
}

export type DvrStats = Pick<StreamStats, 'dvr_enabled' | 'dvr_info'> & { dvr_error?: string };

/** The DVR figures of a stream's stats in read_config. */
export async function dvrStats(server: RunningServer, name: string, location?: string): Promise<DvrStats> {
  return (await streamStats(server, name, location)) as DvrStats;
}

/** The bytes these segments take on disk. */
export async function bytesOf(streamDir: string, segments: readonly RecordedSegment[]): Promise<number> {
  const sizes = await Promise.all(segments.map((s) => stat(join(streamDir, s.path)).then((i) => i.size)));
  return sizes.reduce((a, b) => a + b, 0);
}
