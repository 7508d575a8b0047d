import { RANGE_GAP_MS } from './archive-index.js';
import type { SegmentName } from './layout.js';

/**
 * HLS media playlists of archive segments (RFC 8216). The segments are whole MPEG-TS files as the
 * live segmenter cut them, so each is listed as it is, under a URI the archive handler serves
 * (dvr/START-DURATION.ts beside the playlist) and checks against the index before reading a file.
 */

/** Whether a player must reset its decoder before `segment`: the file says so, or time jumps (a gap). */
export function breakBefore(previous: SegmentName | undefined, segment: SegmentName): boolean {
  if (!previous) return false;
  return segment.discontinuity || segment.startMs - (previous.startMs + previous.durationMs) > RANGE_GAP_MS;
}

/** The URI of an archive segment, relative to a playlist in the stream's folder (/{name}/…). */
export function segmentUri(segment: SegmentName, query: string): string {
  return `dvr/${segment.startMs}-${segment.durationMs}.ts${query}`;
}

/** EXT-X-TARGETDURATION: the longest segment, rounded up (RFC 8216 §4.3.3.1). */
export function targetDurationS(segments: readonly SegmentName[]): number {
  // A loop, not Math.max(...): a week of 2 s segments (302,400) is past V8's limit on call arguments.
  let longest = 1;
  for (const segment of segments) longest = Math.max(longest, Math.ceil(segment.durationMs / 1000));
  return longest;
}

export interface LiveWindowText {
  segments: readonly SegmentName[];
  mediaSequence: number;
  discontinuitySequence: number;
  targetDurationS: number;
}

/**
 * A finished playlist of an archive range (archive-FROM-DURATION.m3u8): VOD, ENDLIST, a
 * discontinuity at each gap and at each segment that does not continue the one before.
 */
export function vodPlaylist(segments: readonly SegmentName[], query: string): string {
  const head = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${targetDurationS(segments)}`];
  head.push('#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD');
  return [...head, ...segmentLines(segments, query), '#EXT-X-ENDLIST', ''].join('\n');
}

/**
 * A live playlist over the archive (timeshift, rewind): a window that moves on with the clock. The
 * numbers count from the request's anchor, so a segment keeps its number across reloads; a break
 * before the window's first segment is already counted in the discontinuity sequence, so no tag is
 * written before it (its number would otherwise change as the window moves).
 */
export function livePlaylist(window: LiveWindowText, query: string): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${window.targetDurationS}`];
  lines.push(`#EXT-X-MEDIA-SEQUENCE:${window.mediaSequence}`);
  lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${window.discontinuitySequence}`);
  return [...lines, ...segmentLines(window.segments, query), ''].join('\n');
}

function segmentLines(segments: readonly SegmentName[], query: string): string[] {
  const lines: string[] = [];
  let previous: SegmentName | undefined;
  for (const segment of segments) {
    const jump = breakBefore(previous, segment);
    if (jump) lines.push('#EXT-X-DISCONTINUITY');
    // The wall clock of the recording: players show it, and seek by it (the DVR timeline).
    if (!previous || jump) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.startMs).toISOString()}`);
    lines.push(`#EXTINF:${(segment.durationMs / 1000).toFixed(3)},`, segmentUri(segment, query));
    previous = segment;
  }
  return lines;
}
