import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { send } from '../delivery/respond.js';
import { refuseJson } from '../dvr/archive-respond.js';
import { hlsAnswer } from './vod-hls.js';
import type { Located, LocatedFile } from './vod-locate.js';
import { serveVodMpegts } from './vod-mpegts.js';
import type { VodTrack } from './vod-source.js';
import type { Borrowed } from './vod-sources.js';

export interface VodStreamDeps {
  sessions: ClientSessions;
  borrow: (file: LocatedFile) => Promise<Borrowed>;
  /** The file's tracks, for its media_info while it is opened. */
  noteTracks: (name: string, prefix: string, file: LocatedFile, tracks: readonly VodTrack[]) => void;
  /** Runs a segment read of the file under its VOD's read_queue and max_readers (read-limits.ts). */
  limit: <T>(prefix: string, absolute: string, task: () => Promise<T>) => Promise<T>;
  /** Looks for the file again after a failed read: gone (404) ends its sessions. */
  stillThere: (prefix: string, found: VodStreamRequest['found']) => Promise<Located>;
}

export interface VodStreamRequest {
  found: { name: string; file: LocatedFile; target: { parts: string[]; resource: string } };
  prefix: string;
  resource: string;
  query: string;
  session: ClientSession;
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * The HLS resources of a file (vod-hls.ts) and /mpegts, made from its opened source. A file the
 * readers can't open answers 422 naming it; a segment that can't be cut answers 404 when the file
 * is gone since (its sessions end), 500 naming the file otherwise. Answers never name the
 * server's own path: the file is PREFIX/PATH to players.
 */
export async function serveVodStream(deps: VodStreamDeps, r: VodStreamRequest): Promise<void> {
  const { name, file } = r.found;
  const named = (message: string) => message.split(file.absolute).join(name);
  let borrowed: Borrowed;
  try {
    borrowed = await deps.borrow(file);
  } catch (error) {
    return refuseJson(r.res, 422, `file ${name} can't be played: ${named((error as Error).message)}`);
  }
  const { source } = borrowed;
  deps.noteTracks(name, r.prefix, file, source.tracks);
  const cut = (index: number, tracks: readonly number[]) =>
    deps.limit(r.prefix, file.absolute, () => source.tsSegment(index, tracks));
  try {
    if (r.resource === 'mpegts')
      return await serveVodMpegts(source, cut, deps.sessions, r.session, r.req, r.res);
    const answer = hlsAnswer(source, r.resource, r.query);
    if ('error' in answer) return refuseJson(r.res, 404, `${name}: ${answer.error}`);
    if ('playlist' in answer)
      return send(
        deps.sessions,
        r.session,
        r.req,
        r.res,
        'application/vnd.apple.mpegurl',
        answer.playlist,
        'no-cache',
      );
    let data: Buffer;
    try {
      data = await cut(answer.segment, answer.tracks);
    } catch (error) {
      const again = await deps.stillThere(r.prefix, r.found);
      if ('status' in again) return refuseJson(r.res, again.status, again.error);
      const why = named((error as Error).message);
      return refuseJson(r.res, 500, `segment ${answer.segment} of ${name} can't be read: ${why}`);
    }
    // A segment of a file is the same until the file changes (then it is opened again).
    send(deps.sessions, r.session, r.req, r.res, 'video/mp2t', data, 'max-age=60');
  } finally {
    borrowed.release();
  }
}
