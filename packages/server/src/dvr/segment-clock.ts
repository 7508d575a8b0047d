import type { SegmentName } from './layout.js';

/** A segment cut this far from where the previous one ended still continues it (event-loop jitter). */
export const CONTINUITY_TOLERANCE_MS = 1_000;

export interface SegmentTiming {
  /** Wall clock when the segment was cut, i.e. when its media ended. */
  nowMs: number;
  durationMs: number;
  /** The segmenter says the media does not continue the previous segment (a source switch). */
  discontinuity: boolean;
  /** End of the previous segment of the archive (ms), if any. */
  previousEndMs: number | undefined;
  /** The previous segment came from this same recording, with nothing dropped since. */
  continues: boolean;
}

/**
 * Where a segment goes on the archive's time line. Consecutive segments of one recording are
 * placed end to end, so the archive has no sub-second holes from when the event loop ran the
 * cut; anything else (a restart, a dropped segment, a source switch, a clock that disagrees with
 * the media by over a second) starts at the wall clock and is flagged `d`, never overlapping the
 * previous segment (the index keeps segments in order).
 */
export function placeSegment(timing: SegmentTiming): SegmentName {
  const { nowMs, previousEndMs } = timing;
  // File names hold whole milliseconds (layout.ts).
  const durationMs = Math.max(1, Math.round(timing.durationMs));
  const byClock = nowMs - durationMs;
  if (
    timing.continues &&
    !timing.discontinuity &&
    previousEndMs !== undefined &&
    Math.abs(byClock - previousEndMs) <= CONTINUITY_TOLERANCE_MS
  )
    return { startMs: previousEndMs, durationMs, discontinuity: false };
  const startMs = previousEndMs !== undefined ? Math.max(byClock, previousEndMs) : byClock;
  return { startMs: Math.round(startMs), durationMs, discontinuity: true };
}
