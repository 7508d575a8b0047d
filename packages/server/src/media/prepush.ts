import type { HlsSegmenter } from './hls-segmenter.js';

/**
 * What a new continuous player (MPEG-TS, RTMP) gets at once with `prepush` (spec 001 §4): the
 * published segments reaching at least `seconds` back, then the open segment so far, all sent
 * without waiting. Each segment starts with the tables and a keyframe, so the player decodes from
 * the first byte. It stops at a discontinuity (an older source's media is not replayed), and it
 * can only give what the segmenter keeps (segment_count segments and a few after). With 0 seconds
 * (prepush false), only the open segment from its keyframe, as before.
 */
export function prepushStart(segmenter: HlsSegmenter, seconds: number): Buffer[] {
  const open = segmenter.liveStart();
  if (seconds <= 0 || open.length === 0) return open;
  const wantMs = seconds * 1000;
  let heldMs = segmenter.openDurationMs;
  const segments = segmenter.segments;
  const taken: Buffer[] = [];
  // The open segment itself may start a new timeline: then nothing older goes with it.
  const openIsNewTimeline = segmenter.openStartsDiscontinuity;
  for (let i = segments.length - 1; i >= 0 && heldMs < wantMs && !openIsNewTimeline; i--) {
    const segment = segments[i]!;
    taken.push(segment.data);
    heldMs += segment.durationMs;
    if (segment.discontinuity) break;
  }
  if (taken.length === 0) return open;
  // Segments carry their own tables; the open one's parts follow the newest taken segment.
  return [...taken.reverse(), ...open.slice(1)];
}
