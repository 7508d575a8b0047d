/** HLS playlist texts (RFC 8216), built from the segmenter's state by pure functions. */

export interface PlaylistSegment {
  sequence: number;
  durationMs: number;
  /** Timestamps jump before this segment (a source switch or restart): §4.3.2.3. */
  discontinuity: boolean;
  /**
   * A hole in the wall-clock timeline before this segment (an outage), as EXT-X-GAP segments of
   * these durations numbered just below it (RFC 8216bis §4.4.4.7). Not listed before the first
   * segment of a window: nothing precedes it there.
   */
  gapsBeforeMs?: readonly number[];
}

export interface MediaPlaylistInput {
  segments: readonly PlaylistSegment[];
  targetDurationS: number;
  /** Discontinuities that have already left the window (§4.3.3.3). */
  discontinuitySequence: number;
  /** Appended to each segment URI, e.g. "?token=abc" so the segment counts to the same session. */
  query: string;
}

export const segmentUri = (sequence: number): string => `seg-${sequence}.ts`;

/** The live media playlist (video.m3u8): a rolling window, no ENDLIST. */
export function mediaPlaylist(input: MediaPlaylistInput): string {
  const first = input.segments[0]?.sequence ?? 0;
  // EXT-X-GAP needs protocol version 8 (RFC 8216bis §7); without a gap in the window, 3 as before.
  const listsGap = input.segments.some((s, index) => index > 0 && (s.gapsBeforeMs?.length ?? 0) > 0);
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${listsGap ? 8 : 3}`,
    `#EXT-X-TARGETDURATION:${input.targetDurationS}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
  ];
  if (input.discontinuitySequence > 0)
    lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${input.discontinuitySequence}`);
  for (const [index, segment] of input.segments.entries()) {
    const gaps = index > 0 ? (segment.gapsBeforeMs ?? []) : [];
    for (const [k, ms] of gaps.entries()) {
      const sequence = segment.sequence - gaps.length + k;
      lines.push(`#EXTINF:${(ms / 1000).toFixed(3)},`, '#EXT-X-GAP', `${segmentUri(sequence)}${input.query}`);
    }
    if (segment.discontinuity) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(
      `#EXTINF:${(segment.durationMs / 1000).toFixed(3)},`,
      `${segmentUri(segment.sequence)}${input.query}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export interface Variant {
  uri: string;
  /** Peak segment bits per second (§4.3.4.2: BANDWIDTH is required). */
  bandwidth: number;
  /** Average segment bits per second (AVERAGE-BANDWIDTH, optional). */
  averageBandwidth?: number;
  codecs: string[];
  resolution: { width: number; height: number } | undefined;
}

/** The master playlist (index.m3u8), listing the variant(s). */
export function masterPlaylist(variants: readonly Variant[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const v of variants) {
    // Rounded up: a player must not see a peak below the one it will download (§4.3.4.2).
    const attributes = [`BANDWIDTH=${Math.max(1, Math.ceil(v.bandwidth))}`];
    if (v.averageBandwidth !== undefined)
      attributes.push(`AVERAGE-BANDWIDTH=${Math.max(1, Math.round(v.averageBandwidth))}`);
    if (v.codecs.length > 0) attributes.push(`CODECS="${v.codecs.join(',')}"`);
    if (v.resolution) attributes.push(`RESOLUTION=${v.resolution.width}x${v.resolution.height}`);
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, v.uri);
  }
  return `${lines.join('\n')}\n`;
}
