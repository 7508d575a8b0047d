import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MediaInfo } from '@sluice/api';
import type { PlayAuth } from '../auth/play-auth.js';
import type { Engine } from '../engine/engine.js';
import { authorizedSession, whenReady } from '../auth/play-gate.js';
import type { ClientSession, ClientSessions, SessionType } from '../delivery/client-sessions.js';
import { protocolAllowed } from '../delivery/protocols.js';
import { COMMON_HEADERS } from '../delivery/respond.js';
import type { ArchiveExports } from './archive-export.js';
import { archiveFrame } from './archive-frame.js';
import type { ArchiveIndex } from './archive-index.js';
import { type ArchiveRequest, parseArchivePath } from './archive-url.js';
import { refuseJson, sendFile, sendJson } from './archive-respond.js';
import { serveJson } from './archive-json-handler.js';
import { streamInfoJson } from './stream-info-json.js';
import type { DvrInfo } from './stream-archive.js';
import { serveDashPiece, serveFmp4Piece, serveLive, serveRange, type Served } from './archive-serve.js';

export interface ArchivePlaybackDeps {
  /** The archive index of a stream with DVR (dvr/dvr-service.ts); undefined for one without. */
  archive: (name: string) => ArchiveIndex | undefined;
  /** What the engine knows of a running stream: its session limit, protocol switches, tracks. */
  stream: (name: string) =>
    | {
        maxSessions?: number;
        protocols?: Readonly<Record<string, boolean>>;
        mediaInfo?: MediaInfo;
        running?: boolean;
      }
    | undefined;
  /** dvr_info of a stream with DVR (dvr/dvr-service.ts), for info.json. */
  dvrInfo?: (name: string) => DvrInfo | undefined;
  sessions: ClientSessions;
  /** Play authorization (auth/play-auth.ts): the one gate live playback goes through too. */
  auth: PlayAuth;
  /** Streams under HLS AES-128: their archive would go out in the clear, so it is not served. */
  encrypted: (name: string) => boolean;
  exports: ArchiveExports;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

const SESSION_TYPE: Record<string, SessionType> = { m3u8: 'hls', ts: 'mpegts', mp4: 'mp4', mpd: 'dash' };

/** The engine's view of a stream, as archive playback needs it. */
export function streamFacts(engine: Pick<Engine, 'get' | 'mediaInfo'>): ArchivePlaybackDeps['stream'] {
  return (name) => {
    const runtime = engine.get(name);
    if (!runtime) return undefined;
    const { maxSessions, protocols } = runtime.spec;
    return { maxSessions, protocols, mediaInfo: engine.mediaInfo(name), running: runtime.running };
  };
}

/**
 * Archive playback (the URL family of archive-url.ts) on the plain Node request path, as live
 * playback is. Every request passes play authorization; playback requests open or join a session
 * like live ones do; the JSON answers and pictures are checked the same way and count to no
 * session (as the live preview). Returns false for a path that is not an archive one.
 */
export function archivePlaybackHandler(
  deps: ArchivePlaybackDeps,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const parsed = parseArchivePath(q < 0 ? url : url.slice(0, q));
    if (!parsed) return false;
    if ('error' in parsed) {
      refuseJson(res, 400, parsed.error);
      return true;
    }
    const name = parsed.name;
    const stream = deps.stream(name);
    // Neither a stream nor an archive of that name: the path is someone else's (the API, the console).
    if (!stream && !deps.archive(name)) return false;
    const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const type = sessionTypeOf(parsed);
    if (type && !protocolAllowed(stream?.protocols, type)) {
      refuseJson(res, 403, `${type} is switched off for stream ${name}`);
      return true;
    }
    if (deps.encrypted(name)) {
      refuseJson(res, 403, `stream ${name} is encrypted (drm aes128): its archive is not served`);
      return true;
    }
    const who = {
      stream: name,
      ip: req.socket.remoteAddress ?? '',
      userAgent: req.headers['user-agent'] ?? '',
      token: params.get('token') ?? undefined,
      referer: req.headers.referer,
    };
    const withArchive = (then: (index: ArchiveIndex) => void) => {
      const index = deps.archive(name);
      if (!index) return refuseJson(res, 404, `stream ${name} has no DVR archive`);
      then(index);
    };
    if (!type) {
      // JSON and pictures show the archive: the same authorization, but no session (as preview.jpg).
      const check = { ...who, name, proto: 'dvr', sessionId: '', requestType: 'play' as const };
      whenReady(deps.auth.check(check), (d) => {
        if (!d.allow) return refuseJson(res, 403, `access denied: ${d.reason}`);
        const archive = deps.archive(name);
        if (parsed.kind === 'json' && parsed.what === 'info') {
          const dvr = { enabled: archive !== undefined, info: deps.dvrInfo?.(name) };
          return sendJson(req, res, streamInfoJson(name, { running: false, ...stream }, dvr));
        }
        // A live stream's tracks are known without an archive.
        const live = parsed.kind === 'json' && parsed.what === 'media_info' ? stream?.mediaInfo : undefined;
        if (live && !archive) return sendJson(req, res, live);
        // A stream without DVR has no ranges: an empty list (the DVR player asks again at once on an error).
        if (parsed.kind === 'json' && parsed.what === 'ranges' && !archive)
          return sendJson(req, res, { ranges: [] });
        withArchive((index) => void answer(deps, parsed, index, params, req, res));
      });
      return true;
    }
    whenReady(
      authorizedSession(deps.auth, deps.sessions, { ...who, type }, stream?.maxSessions),
      (session) => {
        if ('refused' in session) return refuseJson(res, session.status ?? 403, session.refused);
        withArchive((index) => void play(deps, parsed, index, session, params, req, res));
      },
    );
    return true;
  };
}

/** The session type of a playback request; undefined for the JSON answers and pictures. */
function sessionTypeOf(request: ArchiveRequest): SessionType | undefined {
  if (request.kind === 'json' || request.kind === 'jpg') return undefined;
  if (request.kind === 'segment' || request.kind === 'fmp4_piece' || request.kind === 'rewind') return 'hls';
  if (request.kind === 'dash_piece') return 'dash';
  return SESSION_TYPE[request.format];
}

async function answer(
  deps: ArchivePlaybackDeps,
  request: ArchiveRequest,
  index: ArchiveIndex,
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (request.kind === 'json') return serveJson(deps, request.name, request.what, index, params, req, res);
  if (request.kind !== 'jpg') return;
  const frame = await archiveFrame(index, request.atMs, request.preview, deps);
  if ('error' in frame) return refuseJson(res, frame.status, frame.error);
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'image/jpeg',
    'content-length': frame.jpeg.length,
    // A moment of the past does not change.
    'cache-control': 'max-age=3600',
  });
  res.end(req.method === 'HEAD' ? undefined : frame.jpeg);
}

async function play(
  deps: ArchivePlaybackDeps,
  request: ArchiveRequest,
  index: ArchiveIndex,
  session: ClientSession,
  params: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const token = params.get('token');
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const out = { sessions: deps.sessions, session, req, res };
  let served: Served;
  try {
    if (request.kind === 'segment') served = serveSegment(out, index, request);
    else if (request.kind === 'range') served = await serveRange(deps, out, index, request, query);
    else if (request.kind === 'dash_piece') served = await serveDashPiece(deps, out, index, request);
    else if (request.kind === 'fmp4_piece') served = await serveFmp4Piece(out, index, request);
    else if (request.kind !== 'json' && request.kind !== 'jpg')
      served = serveLive(out, index, request, query);
    else return;
  } catch (error) {
    served = { status: 500, error: (error as Error).message };
  }
  if (served && !res.headersSent) refuseJson(res, served.status, served.error);
}

/** One archive segment named by a playlist: only a segment the index holds is read. */
function serveSegment(
  out: { sessions: ClientSessions; session: ClientSession; req: IncomingMessage; res: ServerResponse },
  index: ArchiveIndex,
  request: { startMs: number; durationMs: number },
): Served {
  const found = index.segments(request.startMs, request.startMs + 1)[0];
  if (!found || found.startMs !== request.startMs || found.durationMs !== request.durationMs)
    return {
      status: 404,
      error: `segment ${request.startMs}-${request.durationMs} is not (or no longer) in the archive`,
    };
  const file = { path: index.pathOf(found), size: found.bytes, type: 'video/mp2t' };
  sendFile(out.sessions, out.session, out.req, out.res, file, () => undefined);
  return undefined;
}
