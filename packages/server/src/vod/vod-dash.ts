import { send } from '../delivery/respond.js';
import { type Fmp4Segment, tsToFmp4 } from '../media/fmp4/ts-to-fmp4.js';
import { VodAnswerError, type VodFormat, type VodRequest } from './vod-format.js';
import { dashTracks, parseDashPiece, vodMpd } from './vod-dash-mpd.js';
import type { VodSource } from './vod-source.js';

/** Remuxed pieces kept: the players of one file fetch the same few segments of each track. */
const PIECES_KEPT = 48;

/**
 * DASH of a file: /{prefix}/{path}/index.mpd (vod-dash-mpd.ts) and its pieces, each made when first
 * asked for by remuxing the segment's MPEG-TS of that one track (source.tsSegment(I, [ID])) through
 * media/fmp4/ts-to-fmp4.ts: no copy of the file is written. Fragments keep the TS timestamps (media
 * time + VOD_PTS_OFFSET_S), which the MPD's timeline and presentationTimeOffset state.
 */
export class VodDash implements VodFormat {
  /** Remuxes by file version, track and segment; each shared by the requests that come while it runs. */
  private readonly pieces = new Map<string, Promise<Fmp4Segment>>();

  constructor(private readonly kept = PIECES_KEPT) {}

  matches = (resource: string): boolean => resource === 'index.mpd' || parseDashPiece(resource) !== undefined;

  session = (): 'dash' => 'dash';

  serve = async (r: VodRequest): Promise<void> => {
    const borrowed = await r.borrow();
    try {
      const { source } = borrowed;
      const { session } = r;
      if (!session) throw new Error('DASH is playback: a session is needed');
      if (r.resource === 'index.mpd') {
        if (dashTracks(source.tracks).length === 0)
          throw new VodAnswerError(422, `file ${r.name} has no track DASH can carry (H.264/HEVC, AAC)`);
        const mpd = vodMpd(source.durationS, source.segments, source.tracks, r.query);
        return send(r.sessions, session, r.req, r.res, 'application/dash+xml', mpd, 'no-cache');
      }
      const piece = parseDashPiece(r.resource)!;
      const track = dashTracks(source.tracks).find((t) => t.id === piece.trackId);
      if (!track) throw new VodAnswerError(404, `file ${r.name} has no DASH track ${piece.trackId}`);
      const index = piece.init ? 0 : piece.index;
      if (index >= source.segments.length)
        throw new VodAnswerError(
          404,
          `file ${r.name} has no segment ${index} (it has ${source.segments.length})`,
        );
      const remuxed = await this.remux(source, track.id, index);
      const type = `${track.content}/mp4`;
      const body = piece.init ? remuxed.init : remuxed.fragment;
      send(r.sessions, session, r.req, r.res, type, body, 'max-age=60');
    } finally {
      borrowed.release();
    }
  };

  /** Segment `index` of one track as CMAF (from the LRU, or remuxed now). */
  private async remux(source: VodSource, trackId: number, index: number): Promise<Fmp4Segment> {
    const key = `${source.path}\0${source.mtimeMs}\0${source.sizeBytes}\0${trackId}\0${index}`;
    let remuxed = this.pieces.get(key);
    if (remuxed) this.pieces.delete(key);
    else
      remuxed = source
        .tsSegment(index, [trackId])
        .then((ts) => tsToFmp4(ts, { sequence: index + 1 }))
        .catch((error: Error) => {
          const message = error.message.includes(source.path)
            ? error.message
            : `${source.path}: ${error.message}`;
          throw new VodAnswerError(500, `${message} (DASH segment ${index} of track ${trackId})`);
        });
    this.pieces.set(key, remuxed);
    while (this.pieces.size > this.kept) this.pieces.delete(this.pieces.keys().next().value!);
    try {
      return await remuxed;
    } catch (error) {
      this.pieces.delete(key);
      throw error;
    }
  }
}
