import { join } from 'node:path';

/**
 * Where a stream's archive lives on disk. Everything of stream NAME is under `ROOT/NAME` (the path
 * hint: "No need to specify stream directory, it will be created automatically"), one folder per
 * UTC hour, one MPEG-TS file per live segment, named for what the index needs:
 *
 *   ROOT/NAME/2026/11/24/09/1795510800000-2000.ts     start (ms since epoch, UTC) - duration (ms)
 *   ROOT/NAME/2026/11/24/09/1795510802000-2000d.ts    "d": the media does not continue the previous
 *                                                     file (a source switch, a restart, a gap)
 *
 * The folder listing is the index: a restart reads it back, and nothing else has to be kept in
 * step. A segment is written as `.START.tmp` in its folder and renamed when whole, so kill -9 loses
 * at most the segment being written; the leftover temporary file is removed on the next load.
 */

export interface SegmentName {
  startMs: number;
  durationMs: number;
  /** The media does not continue the previous segment's (timestamps and codec state start over). */
  discontinuity: boolean;
}

const SEGMENT_NAME = /^(\d{13})-(\d{1,9})(d?)\.ts$/;

export function segmentFileName(segment: SegmentName): string {
  return `${segment.startMs}-${segment.durationMs}${segment.discontinuity ? 'd' : ''}.ts`;
}

/** The segment a file name stands for; undefined for anything else in the folder. */
export function parseSegmentFileName(name: string): SegmentName | undefined {
  const match = SEGMENT_NAME.exec(name);
  if (!match) return undefined;
  return { startMs: Number(match[1]), durationMs: Number(match[2]), discontinuity: match[3] === 'd' };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY/MM/DD/HH` (UTC) of the hour a moment falls in. */
export function hourFolder(ms: number): string {
  const d = new Date(ms);
  return join(
    String(d.getUTCFullYear()),
    pad(d.getUTCMonth() + 1),
    pad(d.getUTCDate()),
    pad(d.getUTCHours()),
  );
}

/** The file of a segment, under the stream's folder (ROOT/NAME). */
export function segmentPath(streamDir: string, segment: SegmentName): string {
  return join(streamDir, hourFolder(segment.startMs), segmentFileName(segment));
}

/** The file a segment is written to before it is whole. */
export function temporarySegmentPath(streamDir: string, startMs: number): string {
  return join(streamDir, hourFolder(startMs), `.${startMs}.tmp`);
}

/**
 * The stream's folder under a root, or undefined when the name would leave it: stream names may
 * hold slashes (published streams of a location), never `..`, `.` or empty parts.
 */
export function streamFolder(root: string, name: string): string | undefined {
  const parts = name.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0') || p.includes('\\')))
    return undefined;
  return join(root, ...parts);
}
