import { tsFileToFmp4 } from './ts-file-to-fmp4.js';
import type { Fmp4Segment } from './ts-to-fmp4.js';

/**
 * fMP4 HLS of the DVR archive (index-FROM-DURATION.fmp4.m3u8, timeshift_*.fmp4.m3u8,
 * rewind-AGO.fmp4.m3u8: what Flussonic's DVR player asks for), made from the TS playlists of
 * dvr/archive-playlist.ts by renaming: no segment is read to write a playlist, so a 24-hour one costs
 * what its TS twin does. Each archive segment dvr/START-DURATION.ts has its fragment beside it,
 * dvr/START-DURATION.m4s, and its init, dvr/START-DURATION.init.mp4.
 */

/** The archive segment URI of a TS playlist line (archive-playlist.ts segmentUri) and its query. */
const TS_URI = /^dvr\/(\d{1,15})-(\d{1,9})\.ts(\?.*)?$/;
/** The fMP4 pieces of an archive segment, as a request path's last two parts. */
export const ARCHIVE_FMP4_PIECE = /^dvr\/(\d{13})-(\d{1,9})\.(m4s|init\.mp4)$/;

/**
 * The fMP4 twin of an archive TS playlist (VOD or live window): version 7, each segment's fragment,
 * and an EXT-X-MAP naming the init of the first segment of the playlist and of each segment after
 * a discontinuity. Within a run without a break one encoder made the segments, so one init holds.
 */
export function archiveFmp4Playlist(tsPlaylist: string): string {
  const out: string[] = [];
  let mapDue = true;
  let pending: string[] = [];
  for (const line of tsPlaylist.split('\n')) {
    const uri = TS_URI.exec(line);
    if (line.startsWith('#EXT-X-VERSION:')) out.push('#EXT-X-VERSION:7');
    else if (line === '#EXT-X-DISCONTINUITY') {
      mapDue = true;
      out.push(line);
    } else if (line.startsWith('#EXTINF:')) pending.push(line);
    else if (uri) {
      const [, start, duration, query = ''] = uri;
      // EXT-X-MAP goes after the discontinuity (it applies to the segments after it), before EXTINF.
      if (mapDue) out.push(`#EXT-X-MAP:URI="dvr/${start}-${duration}.init.mp4${query}"`);
      mapDue = false;
      out.push(...pending, `dvr/${start}-${duration}.m4s${query}`);
      pending = [];
    } else out.push(line);
  }
  return out.join('\n');
}

/** An archive segment as the index lists it (dvr/archive-index.ts ArchiveSegment). */
export interface ArchivedSegment {
  startMs: number;
  durationMs: number;
  /** The file does not continue the one before (source switch, restart, gap). */
  discontinuity: boolean;
}

/** What of the archive index the remux reads: segments by time, and their files. */
export interface ArchiveFiles<S extends ArchivedSegment> {
  segments(fromMs: number, toMs: number): S[];
  pathOf(segment: S): string;
}

/** A longer gap breaks a run (dvr/archive-index.ts RANGE_GAP_MS). */
const GAP_MS = 1_000;
/** How far back a segment cut inside a GOP looks for SPS/PPS: longer GOPs than this are not expected. */
const LOOK_BACK_MS = 60_000;
/** Remuxed archive segments kept: players of one timeshift fetch the same few at once. */
const CACHED = 64;

/**
 * Archive fragments and inits, remuxed from the segment files when first asked for and kept for
 * the next players (a small LRU, each remux shared by requests that come while it runs).
 */
export class ArchiveFmp4 {
  private readonly cache = new Map<string, Promise<Fmp4Segment>>();

  /**
   * The init or the fragment of the archive segment START-DURATION; undefined when the index holds
   * no such segment. Rejects with the remuxer's reason for a file it cannot carry.
   */
  async piece<S extends ArchivedSegment>(
    files: ArchiveFiles<S>,
    startMs: number,
    durationMs: number,
    kind: 'init' | 'fragment',
  ): Promise<Buffer | undefined> {
    const segment = files.segments(startMs, startMs + 1).find((s) => s.startMs === startMs);
    if (!segment || segment.durationMs !== durationMs) return undefined;
    const path = files.pathOf(segment);
    let remuxed = this.cache.get(path);
    if (remuxed) this.cache.delete(path);
    else remuxed = tsFileToFmp4(path, { before: runBefore(files, segment) });
    this.cache.set(path, remuxed);
    while (this.cache.size > CACHED) this.cache.delete(this.cache.keys().next().value!);
    try {
      const out = await remuxed;
      return kind === 'init' ? out.init : out.fragment;
    } catch (error) {
      this.cache.delete(path);
      throw error;
    }
  }
}

/** The files before `segment` in its run (no discontinuity, no gap between), oldest first. */
function runBefore<S extends ArchivedSegment>(files: ArchiveFiles<S>, segment: S): string[] {
  if (segment.discontinuity) return [];
  const earlier = files.segments(segment.startMs - LOOK_BACK_MS, segment.startMs);
  const run: string[] = [];
  let next: ArchivedSegment = segment;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const s = earlier[i]!;
    if (s.startMs >= segment.startMs) continue;
    if (next.startMs - (s.startMs + s.durationMs) > GAP_MS) break;
    run.unshift(files.pathOf(s));
    if (s.discontinuity) break;
    next = s;
  }
  return run;
}
