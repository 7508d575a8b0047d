import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { COMMON_HEADERS } from '../delivery/respond.js';
import { hlsLayout } from './vod-hls.js';
import type { VodSource } from './vod-source.js';

/**
 * /{prefix}/{path}/mpegts: the whole file as one continuous MPEG-TS (the segments in order: their
 * timestamps run on from one to the next). Each segment is cut only when the socket has taken
 * the one before ('drain'), so a slow player holds one segment in memory, not the file. A
 * player going away, or its session closed, stops the reading; a segment that can't be read
 * (the file deleted or damaged) ends the answer with the bytes sent so far.
 */
export async function serveVodMpegts(
  source: VodSource,
  /** source.tsSegment under the VOD's read limits. */
  cut: (index: number, tracks: readonly number[]) => Promise<Buffer>,
  sessions: ClientSessions,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'video/mp2t', 'cache-control': 'no-cache' });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const tracks = hlsLayout(source.tracks).main;
  let closed = false;
  res.once('close', () => (closed = true));
  session.openResponses++;
  try {
    for (let i = 0; i < source.segments.length && !closed; i++) {
      if (sessions.isClosed(session)) break;
      let data: Buffer;
      try {
        data = await cut(i, tracks);
      } catch {
        break;
      }
      if (closed) break;
      sessions.sent(session, data.length, Date.now());
      if (!res.write(data)) await drained(res);
    }
  } finally {
    session.openResponses--;
    if (!closed) res.end();
  }
}

/** Resolves when the socket wants more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
