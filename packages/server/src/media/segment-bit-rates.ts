/** What a master playlist advertises for one variant, from the segments of its media playlist. */

export interface MeasuredSegment {
  /** The segment as served (its bytes, container overhead included). */
  data: { length: number };
  /** Its EXTINF duration. */
  durationMs: number;
}

export interface SegmentBitRates {
  /** BANDWIDTH: the peak segment bit rate. */
  peakBps: number;
  /** AVERAGE-BANDWIDTH: the average segment bit rate. */
  averageBps: number;
}

/**
 * RFC 8216's figures (§4.3.4.2) over the segments a player can fetch: the peak segment bit rate is
 * the largest bit rate (bytes over duration) of consecutive segments lasting 0.5 to 1.5 target
 * durations, the average one all bytes over all durations. Sets longer than 1.5 target durations
 * are counted too: a long set's rate is an average of shorter sets' (or of one long segment, which
 * alone fits no bound), so the peak stays the RFC's while holding for any EXT-X-TARGETDURATION the
 * playlist rounds `segmentDurationMs` to. A set, rather than each segment, keeps a short segment at
 * a splice (a keyframe in 40 ms) from reading as a spike no player sees. The figures change only
 * when a cut changes the segments, so every request between two cuts gets the same ones.
 * Undefined before the first segment with a duration.
 */
export function segmentBitRates(
  segments: readonly MeasuredSegment[],
  segmentDurationMs: number,
): SegmentBitRates | undefined {
  let totalBytes = 0;
  let totalMs = 0;
  for (const s of segments) {
    totalBytes += s.data.length;
    totalMs += s.durationMs;
  }
  if (totalMs <= 0) return undefined;
  const averageBps = (totalBytes * 8000) / totalMs;
  // Half the smallest target duration the playlist may state: whole seconds, at least one.
  const targetMs = Math.min(segmentDurationMs, Math.max(1000, Math.floor(segmentDurationMs / 1000) * 1000));
  const shortestSetMs = targetMs / 2;
  let peakBps = averageBps;
  for (let first = 0; first < segments.length; first++) {
    let bytes = 0;
    let ms = 0;
    for (let last = first; last < segments.length; last++) {
      bytes += segments[last]!.data.length;
      ms += segments[last]!.durationMs;
      if (ms >= shortestSetMs) peakBps = Math.max(peakBps, (bytes * 8000) / ms);
    }
  }
  return { peakBps, averageBps };
}
