import { TS_CLOCK } from '../ts-packet.js';

export interface LlPart {
  /** The part's number across the stream (its URI): the next one is known before its segment is. */
  number: number;
  duration90k: number;
  independent: boolean;
  fragment: Buffer;
}

export interface LlSegment {
  msn: number;
  parts: LlPart[];
  /** All its parts are in: it is listed with EXTINF and served whole. */
  complete: boolean;
  initId: string;
  discontinuity: boolean;
  /** Unwrapped 90 kHz time of its first frame, and the wall clock at 0 of its timeline. */
  start90k: number;
  clock: { wallAt0: number };
}

export interface LlPlaylistInput {
  targetDurationS: number;
  partTargetS: number;
  /** Oldest first; the last may be the open one. */
  segments: readonly LlSegment[];
  /** Parts are listed for segments from this media sequence number on. */
  partsFromMsn: number;
  discontinuitySequence: number;
  /** The part after the newest: EXT-X-PRELOAD-HINT. */
  nextPart: number;
  /** Appended to every URI (a token). */
  query: string;
  /** _HLS_skip: a delta update (RFC 8216bis §6.2.5.1), segments before the Skip Boundary left out. */
  skip?: boolean;
}

/** CAN-SKIP-UNTIL in target durations: the least RFC 8216bis §4.4.3.8 allows. */
const SKIP_TARGETS = 6;

export const llInitUri = (initId: string): string => `ll-init-${initId}.mp4`;
export const llSegmentUri = (msn: number): string => `ll-${msn}.m4s`;
export const llPartUri = (number: number): string => `ll-part-${number}.m4s`;

/** Seconds with five decimals, as EXTINF and EXT-X-PART DURATION are written. */
const seconds = (ticks: number): string => (ticks / TS_CLOCK).toFixed(5);

/**
 * The LL-HLS media playlist (RFC 8216bis §4.4.4.9, §4.4.5.2, §4.4.3.7-8): whole segments with
 * EXTINF, the partial segments of the newest ones before them (and of the open one after), an
 * EXT-X-MAP where the init changes, PROGRAM-DATE-TIME at each segment, and a preload hint for the
 * next part. PART-HOLD-BACK is three part targets, as RFC 8216bis recommends. CAN-SKIP-UNTIL offers
 * delta updates: with `skip`, the whole segments that end more than that before the playlist's end
 * become one EXT-X-SKIP (the media sequence stays that of the first, skipped or not).
 */
export function llMediaPlaylist(input: LlPlaylistInput): string {
  const { query } = input;
  const first = input.segments[0];
  const canSkipUntilS = SKIP_TARGETS * input.targetDurationS;
  const skipped = input.skip ? skippable(input, canSkipUntilS) : 0;
  const segments = input.segments.slice(skipped);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:9',
    `#EXT-X-TARGETDURATION:${input.targetDurationS}`,
    `#EXT-X-PART-INF:PART-TARGET=${input.partTargetS.toFixed(3)}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=${canSkipUntilS.toFixed(1)},PART-HOLD-BACK=${(input.partTargetS * 3).toFixed(3)}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.msn ?? 0}`,
  ];
  if (input.discontinuitySequence > 0)
    lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${input.discontinuitySequence}`);
  if (skipped > 0) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${skipped}`);
  let init: string | undefined;
  for (const segment of segments) {
    if (segment.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    if (segment.initId !== init) lines.push(`#EXT-X-MAP:URI="${llInitUri(segment.initId)}${query}"`);
    init = segment.initId;
    const date = segment.clock.wallAt0 + (segment.start90k * 1000) / TS_CLOCK;
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(Math.round(date)).toISOString()}`);
    if (segment.msn >= input.partsFromMsn || !segment.complete)
      for (const part of segment.parts) {
        const independent = part.independent ? ',INDEPENDENT=YES' : '';
        lines.push(
          `#EXT-X-PART:DURATION=${seconds(part.duration90k)},URI="${llPartUri(part.number)}${query}"${independent}`,
        );
      }
    if (segment.complete) {
      const duration = segment.parts.reduce((n, p) => n + p.duration90k, 0);
      lines.push(`#EXTINF:${seconds(duration)},`, `${llSegmentUri(segment.msn)}${query}`);
    }
  }
  lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${llPartUri(input.nextPart)}${query}"`);
  return `${lines.join('\n')}\n`;
}

/**
 * How many segments from the start a delta update leaves out: whole ones listed without parts
 * whose end is at least `canSkipUntilS` before the playlist's end (its Skip Boundary).
 */
function skippable(input: LlPlaylistInput, canSkipUntilS: number): number {
  const length90k = (segment: LlSegment) => segment.parts.reduce((n, p) => n + p.duration90k, 0);
  const total90k = input.segments.reduce((n, s) => n + length90k(s), 0);
  const boundary90k = total90k - canSkipUntilS * TS_CLOCK;
  let end90k = 0;
  let count = 0;
  for (const segment of input.segments) {
    end90k += length90k(segment);
    if (!segment.complete || segment.msn >= input.partsFromMsn || end90k > boundary90k) break;
    count++;
  }
  return count;
}
