import { firstPtsS } from './dash-ingest-clock.js';

/** What of the HLS segmenter a DASH packager starts from. */
export interface SegmentSource {
  readonly segments: readonly { data: Buffer }[];
  /** The program tables and the open segment from its keyframe. */
  liveStart(): Buffer[];
}

/**
 * The MPEG-TS a new DASH packager is fed before the live packets: the newest whole HLS segment and
 * the open one. With a whole segment behind it, ffmpeg cuts its first segment as soon as it reads
 * the open one's keyframe, so the first MPD is there in a fraction of a second instead of after
 * the next keyframe to come (up to a segment later). The whole segment is left out when the open
 * one does not continue its timeline (a source switch in between).
 */
export function backlog(source: SegmentSource, targetMs: number): Buffer[] {
  const open = source.liveStart();
  const last = source.segments.at(-1);
  if (!last || open.length === 0) return open;
  const lastS = firstPtsS([last.data]);
  const openS = firstPtsS(open);
  if (lastS === undefined || openS === undefined) return open;
  const gapS = openS - lastS;
  return gapS > 0 && gapS <= (3 * targetMs) / 1000 ? [last.data, ...open] : open;
}
