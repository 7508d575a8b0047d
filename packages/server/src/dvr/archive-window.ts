import type { ArchiveIndex, ArchiveSegment } from './archive-index.js';
import { breakBefore, type LiveWindowText, targetDurationS } from './archive-playlist.js';

/**
 * Where a live playlist over the archive stands (timeshift_abs, timeshift_rel, rewind). The index
 * only grows at the end and loses its oldest segments to retention, so positions are found by
 * binary search each time and only differences of positions taken at one moment are used.
 */

/** Segments a timeshift playlist lists: about what a live playlist of 2 s segments holds. */
export const TIMESHIFT_WINDOW_SEGMENTS = 6;
/**
 * timeshift_abs lists this much beyond the moment being played, so a player (which starts three
 * target durations before a live playlist's end) starts at about FROM.
 */
export const TIMESHIFT_LEAD_MS = 6_000;

/** How far before its first edge a timeshift_rel player's numbering starts. */
const REL_ANCHOR_BACK_MS = 60_000;

/** Position of the first segment that starts after `ms` (count when none does). */
export function positionAfter(index: ArchiveIndex, ms: number): number {
  let lo = 0;
  let hi = index.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.at(mid).startMs <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position of the segment holding `ms`, else of the first one after it (count when none). */
export function positionAt(index: ArchiveIndex, ms: number): number {
  const after = positionAfter(index, ms);
  if (after > 0) {
    const before = index.at(after - 1);
    if (before.startMs + before.durationMs > ms) return after - 1;
  }
  return after;
}

/** The segment after the one that starts at `startMs`, once the index has it. */
export function segmentAfter(index: ArchiveIndex, startMs: number): ArchiveSegment | undefined {
  const i = positionAfter(index, startMs);
  return i < index.count ? index.at(i) : undefined;
}

/**
 * The live window [first, last] of positions, numbered from the segment at `anchorMs`: media
 * sequence = segments between the anchor and the window, discontinuity sequence = breaks among them
 * up to and including the window's first segment.
 */
export function liveWindow(
  index: ArchiveIndex,
  anchorMs: number,
  first: number,
  end: number,
  minTargetS: number,
): LiveWindowText | undefined {
  const anchor = positionAt(index, anchorMs);
  const from = Math.max(first, anchor);
  if (from >= end) return undefined;
  let discontinuitySequence = 0;
  let previous: ArchiveSegment | undefined;
  for (let i = anchor; i <= from; i++) {
    const segment = index.at(i);
    if (breakBefore(previous, segment)) discontinuitySequence++;
    previous = segment;
  }
  const segments: ArchiveSegment[] = [];
  for (let i = from; i < end; i++) segments.push(index.at(i));
  return {
    segments,
    mediaSequence: from - anchor,
    discontinuitySequence,
    targetDurationS: Math.max(minTargetS, targetDurationS(segments)),
  };
}

/**
 * The position after the segment being played once `playedMs` of media went by from `fromMs`: the
 * durations of the segments are summed, so a gap in the archive takes no time (a player would sit
 * through it with nothing to play).
 */
function playedTo(index: ArchiveIndex, fromMs: number, playedMs: number): number {
  let i = positionAt(index, fromMs);
  let sumMs = i < index.count ? -Math.max(0, fromMs - index.at(i).startMs) : 0;
  while (i < index.count && sumMs <= playedMs) sumMs += index.at(i++).durationMs;
  return i;
}

/** What a player's first request fixed for the playlist it follows (per session and URL). */
export interface LiveStart {
  anchorMs: number;
  openedAtMs: number;
  /** EXT-X-TARGETDURATION must not change between reloads (RFC 8216 §6.2.1): it only grows. */
  targetS: number;
}

export type LiveShape =
  | { kind: 'timeshift_abs'; fromMs: number }
  | { kind: 'timeshift_rel'; delayMs: number }
  | { kind: 'rewind'; agoMs: number };

/** Where a player of this shape starts when it first asks, at `nowMs`. */
export function liveStartOf(shape: LiveShape, nowMs: number): LiveStart {
  const anchorMs =
    shape.kind === 'timeshift_abs'
      ? shape.fromMs
      : shape.kind === 'timeshift_rel'
        ? // Before the first window, so that window is full: the anchor only sets the numbering.
          nowMs - shape.delayMs - REL_ANCHOR_BACK_MS
        : nowMs - shape.agoMs;
  return { anchorMs, openedAtMs: nowMs, targetS: 1 };
}

/**
 * The window of a live playlist over the archive at `nowMs`:
 * - timeshift_abs: plays from FROM on at the clock's pace since the first request;
 * - timeshift_rel: the live edge `delay` ago, the last few segments before it;
 * - rewind: everything of the last `ago` seconds, up to the live edge.
 */
export function windowAt(
  index: ArchiveIndex,
  shape: LiveShape,
  start: LiveStart,
  nowMs: number,
): LiveWindowText | undefined {
  let first: number;
  let end: number;
  if (shape.kind === 'rewind') {
    first = positionAt(index, nowMs - shape.agoMs);
    end = index.count;
  } else {
    end =
      shape.kind === 'timeshift_abs'
        ? playedTo(index, shape.fromMs, nowMs - start.openedAtMs + TIMESHIFT_LEAD_MS)
        : positionAfter(index, nowMs - shape.delayMs);
    first = Math.max(0, end - TIMESHIFT_WINDOW_SEGMENTS);
  }
  const window = liveWindow(index, start.anchorMs, first, end, start.targetS);
  if (window) start.targetS = window.targetDurationS;
  return window;
}
