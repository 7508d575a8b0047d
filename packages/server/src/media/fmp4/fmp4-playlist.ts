/** A segment URI of the TS media playlist (hls-playlist.ts segmentUri) and its query. */
const TS_SEGMENT = /^seg-(\d+)\.ts(\?.*)?$/;

export const fragmentUri = (sequence: number): string => `fmp4-${sequence}.m4s`;
export const initUri = (initId: string): string => `fmp4-init-${initId}.mp4`;

/**
 * The fMP4 media playlist made from the live TS one: the same segments, durations, sequence and
 * discontinuity numbers (one segmenter, two packagings), each segment's URI pointing at its
 * fragment, and an EXT-X-MAP wherever the init changes (first segment; after a discontinuity that
 * changed codec parameters). `initOf` names a segment's init; undefined (the segment can't be
 * packaged) gives no playlist. `query` (a token) goes on the init URIs too.
 */
export function fmp4MediaPlaylist(
  tsPlaylist: string,
  initOf: (sequence: number) => string | undefined,
  query: string,
): string | undefined {
  const out: string[] = [];
  let pending: string[] = [];
  let currentInit: string | undefined;
  for (const line of tsPlaylist.split('\n')) {
    // 7 for EXT-X-MAP without I-frames-only; the TS playlist says 8 when it lists an EXT-X-GAP.
    if (line.startsWith('#EXT-X-VERSION:'))
      out.push(`#EXT-X-VERSION:${Math.max(7, Number(line.slice('#EXT-X-VERSION:'.length)) || 0)}`);
    else if (line.startsWith('#EXTINF:') || line === '#EXT-X-DISCONTINUITY' || line === '#EXT-X-GAP')
      pending.push(line);
    else if (line.startsWith('#') || line === '') out.push(line);
    else {
      const match = TS_SEGMENT.exec(line);
      if (!match) return undefined;
      const sequence = Number(match[1]);
      if (pending.includes('#EXT-X-GAP')) {
        // An outage kept in the timeline: no media, so no init to look up; listed as it is.
        out.push(...pending, `${fragmentUri(sequence)}${match[2] ?? ''}`);
        pending = [];
        continue;
      }
      const init = initOf(sequence);
      if (!init) return undefined;
      // EXT-X-MAP applies to the segments after it, so it goes after the discontinuity tag.
      const extinf = pending.filter((l) => l.startsWith('#EXTINF:'));
      out.push(...pending.filter((l) => !l.startsWith('#EXTINF:')));
      if (init !== currentInit) out.push(`#EXT-X-MAP:URI="${initUri(init)}${query}"`);
      currentInit = init;
      out.push(...extinf, `${fragmentUri(sequence)}${match[2] ?? ''}`);
      pending = [];
    }
  }
  return out.join('\n');
}
