import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorizedSession, whenReady } from '../auth/play-gate.js';
import type { PlayAuth } from '../auth/play-auth.js';
import type { HlsDrm } from '../drm/hls-drm.js';
import type { Engine } from '../engine/engine.js';
import type { AdInserter } from '../ads/inserter.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import { variantPath } from '../transcoder/variant-path.js';
import type { ClientSession, ClientSessions, SessionType } from './client-sessions.js';
import { serveDash } from './dash-handler.js';
import { AUDIO_ONLY_RESOURCE, serveAudioOnly } from './audio-only-hls.js';
import { SUBTITLES_RESOURCE, serveWebVtt } from '../subtitles/webvtt-hls.js';
import { embedPage } from './embed-page.js';
import { servePlaylist } from './hls-playlist-serve.js';
import { FMP4_RESOURCE, serveFmp4Hls } from './fmp4-hls.js';
import { LLHLS_RESOURCE, serveLlHls } from './llhls-handler.js';
import type { DashPackagers } from './dash-packager.js';
import { protocolAllowed } from './protocols.js';
import { prepushStart } from '../media/prepush.js';
import { COMMON_HEADERS, refuse, send } from './respond.js';
import type { Thumbnails } from './thumbnails.js';

export interface PlaybackDeps {
  engine: Engine;
  sessions: ClientSessions;
  dash: DashPackagers;
  thumbnails: Thumbnails;
  /** Play authorization (auth/play-auth.ts): every request below is checked before a byte goes. */
  auth: PlayAuth;
  /** HLS AES-128 of streams with drm.vendor aes128. */
  drm: HlsDrm;
  /** Ad insertion (ads/inserter.ts): marks a stream's playlist, counts the views of ad segments. */
  ads?: Pick<AdInserter, 'playlist' | 'segmentFetched'>;
  /** Archive playback (dvr/archive-handler.ts): answers the archive URL family, or returns false. */
  archive?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** VOD playback (vod/vod-handler.ts): answers paths under a VOD prefix, or returns false. */
  vod?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** HTTP MPEG-TS publish (ingest/http-ts): answers PUT/POST /{name}/mpegts, or returns false. */
  tsPublish?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Smooth Streaming (mss/mss-handler.ts): answers /{name}.isml/…, or returns false. */
  mss?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/** The output protocols served here (spec 001 §9 protocol names), for server info. */
export const PLAYBACK_OUTPUTS = ['hls', 'mss', 'mpegts', 'dash', 'rtmp', 'rtsp'] as const;

/**
 * The spec's URL shapes (000 §9, 001 §9): /{name}/index.m3u8, video.m3u8 and its segments,
 * /{name}/mpegts, /{name}/index.mpd and its fragments, /{name}/index.fmp4.m3u8 (fMP4 HLS, fmp4-hls.ts).
 */
const RESOURCE =
  /^(?:index\.m3u8|video\.m3u8|mpegts|seg-(\d{1,15})\.ts|key-(\d{1,12})\.key|index\.mpd|preview\.jpg|embed\.html|(?:index|video)\.fmp4\.m3u8|fmp4-init-[0-9a-f]{8}\.mp4|fmp4-\d{1,15}\.m4s|(?:index|video)\.ll\.m3u8|ll-init-[0-9a-f]{8}\.mp4|ll-(?:part-)?\d{1,15}\.m4s|(?:init-stream\d{1,2}|chunk-stream\d{1,2}-\d{1,9})\.m4s|audio\.m3u8|audio-\d{1,15}\.ts|subs-[a-z]{3}(?:\.m3u8|-\d{1,15}\.vtt))$/;
/** `.+` in the shape's name part takes no line terminator. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * `/{name}/{resource}` as [name, resource, segment, key]: the resource is the last path part (the
 * name may hold slashes), so the name is cut at the last slash, never backtracked over.
 */
function readShape(path: string): [string, string, string | undefined, string | undefined] | undefined {
  const slash = path.lastIndexOf('/');
  if (slash < 2 || path[0] !== '/') return undefined;
  const m = RESOURCE.exec(path.slice(slash + 1));
  if (!m) return undefined;
  const name = path.slice(1, slash);
  return LINE_BREAK.test(name) ? undefined : [name, m[0], m[1], m[2]];
}
/** The query of a URL without one: read, never written. */
const NO_QUERY = new URLSearchParams();
/** A continuous-TS player this far behind is cut off rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * Playback from memory, on the plain Node request path: the fewest steps between a request and
 * its bytes. Returns false for a request that is not playback of a configured stream, which then
 * goes on to the API router.
 */
export function playbackHandler(deps: PlaybackDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return deps.tsPublish?.(req, res) ?? false;
    // VOD files first: their URLs (FILE/index.m3u8 …) must not be read as a stream archive's.
    if (deps.vod?.(req, res)) return true;
    if (deps.archive?.(req, res)) return true;
    if (deps.mss?.(req, res)) return true;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = readShape(q < 0 ? url : url.slice(0, q));
    if (!match) return false;
    let name: string;
    try {
      name = decodeURIComponent(match[0]);
    } catch {
      return false;
    }
    // A transcoded stream's variant: /{name}/tracks-vN/video.m3u8 and its segments.
    const variant = deps.engine.get(name) ? undefined : variantPath(name, match[1]);
    if (variant) name = variant.name;
    // pullable: a location's urls may pull PREFIX/NAME for this player (engine/location-urls.ts).
    const runtime = deps.engine.pullable(name);
    if (!runtime) return false;
    const params = q < 0 ? NO_QUERY : new URLSearchParams(url.slice(q + 1));
    const resource = match[1];
    const who = {
      stream: name,
      ip: req.socket.remoteAddress ?? '',
      userAgent: req.headers['user-agent'] ?? '',
      token: params.get('token') ?? undefined,
    };
    if (resource === 'embed.html') serveEmbed(name, params, req, res);
    else if (resource === 'preview.jpg') {
      // A preview shows the stream: the same play authorization, but no session.
      const check = { ...who, name, proto: 'preview', referer: req.headers.referer, sessionId: '' };
      whenReady(deps.auth.check({ ...check, requestType: 'play' }), (d) =>
        d.allow ? servePreview(deps, name, req, res) : refuse(res, 403, `access denied: ${d.reason}`),
      );
    } else {
      // fMP4 HLS (index.fmp4.m3u8, its fragments) is HLS to sessions and protocol switches.
      const fmp4 = FMP4_RESOURCE.test(resource);
      // LL-HLS (index.ll.m3u8, llhls-handler.ts) too.
      const ll = LLHLS_RESOURCE.test(resource);
      const type: SessionType =
        resource === 'mpegts'
          ? 'mpegts'
          : !fmp4 && !ll && (resource.endsWith('.mpd') || resource.endsWith('.m4s'))
            ? 'dash'
            : 'hls';
      if (!protocolAllowed(runtime.spec.protocols, type)) {
        refuse(res, 403, `${type} is switched off for stream ${name}`);
        return true;
      }
      // AES-128 is applied to HLS only: the other outputs would hand out the clear stream.
      if (type !== 'hls' && deps.drm.encrypted(name)) {
        refuse(res, 403, `stream ${name} is encrypted (drm aes128): only HLS is served`);
        return true;
      }
      // A mirror's pull carries a cluster key proof (cluster/proof.ts), checked by play auth.
      const proof = req.headers['x-sluice-cluster'] !== undefined || params.has('cluster');
      const request = {
        ...who,
        type,
        referer: req.headers.referer,
        cluster: proof ? { url, headers: req.headers } : undefined,
      };
      whenReady(authorizedSession(deps.auth, deps.sessions, request, runtime.spec.maxSessions), (session) => {
        if ('refused' in session) refuse(res, session.status ?? 403, session.refused);
        else if (type === 'mpegts') serveMpegts(deps, name, session, req, res);
        else if (fmp4) void serveFmp4Hls(deps, name, resource, who.token, session, req, res);
        else if (ll) void serveLlHls(deps, name, resource, who.token, session, req, res);
        else if (type === 'dash')
          void serveDash(deps.engine, deps.dash, deps.sessions, name, resource, session, req, res);
        else if (AUDIO_ONLY_RESOURCE.test(resource))
          serveAudioOnly(deps, runtime, resource, who.token, session, req, res);
        else if (SUBTITLES_RESOURCE.test(resource))
          serveWebVtt(deps, runtime, resource, who.token, session, req, res);
        else if (match[2] !== undefined)
          serveSegment(deps, runtime, Number(match[2]), session, req, res, variant?.variant);
        else if (match[3] !== undefined) void serveKey(deps, name, Number(match[3]), session, req, res);
        else
          servePlaylist(
            deps,
            name,
            resource === 'index.m3u8',
            who.token,
            session,
            req,
            res,
            variant?.variant,
          );
      });
    }
    return true;
  };
}

function serveSegment(
  deps: PlaybackDeps,
  runtime: StreamRuntime,
  sequence: number,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
  variant?: number,
): void {
  const bus = variant ? runtime.transcoder?.variant(variant) : runtime.bus;
  const segment = bus?.segmenter.get(sequence);
  if (!segment)
    return refuse(res, 404, `segment ${sequence} of ${runtime.name} is not (or no longer) available`);
  if (!variant) deps.ads?.segmentFetched(runtime.name, sequence, session.id);
  // A segment never changes once cut. A clear one goes out at once, with no promise per request.
  if (!deps.drm.encrypted(runtime.name))
    return send(deps.sessions, session, req, res, 'video/mp2t', segment.data, 'max-age=60');
  deps.drm.segment(runtime.name, sequence, segment.data).then(
    (data) => send(deps.sessions, session, req, res, 'video/mp2t', data, 'max-age=60'),
    (error: Error) => refuse(res, 503, `no key for segment ${sequence}: ${error.message}`),
  );
}

/** The AES-128 key of an encrypted stream, to players that passed play authorization. */
async function serveKey(
  deps: PlaybackDeps,
  name: string,
  keyId: number,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let key: Buffer | undefined;
  try {
    key = await deps.drm.key(name, keyId);
  } catch (error) {
    return refuse(res, 503, `no key ${keyId} for ${name}: ${(error as Error).message}`);
  }
  if (!key) return refuse(res, 404, `stream ${name} is not encrypted`);
  send(deps.sessions, session, req, res, 'application/octet-stream', key, 'private, no-cache');
}

/** The player page; the playlists it loads are what counts to a session. */
function serveEmbed(name: string, query: URLSearchParams, req: IncomingMessage, res: ServerResponse): void {
  const page = Buffer.from(embedPage(name, query));
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': page.length,
    'cache-control': 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : page);
}

/** The newest thumbnail; previews are not playback, so they count to no session. */
function servePreview(deps: PlaybackDeps, name: string, req: IncomingMessage, res: ServerResponse): void {
  const jpeg = deps.thumbnails.latest(name);
  if (!jpeg) return refuse(res, 404, `stream ${name} has no preview (thumbnails off, or not running)`);
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'image/jpeg',
    'content-length': jpeg.length,
    'cache-control': 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : jpeg);
}

function serveMpegts(
  deps: PlaybackDeps,
  name: string,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const runtime = deps.engine.touch(name);
  const bus = runtime?.bus;
  if (!runtime || !bus) return refuse(res, 404, `stream ${name} is not running`);
  res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'video/mp2t', 'cache-control': 'no-cache' });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  session.openResponses++;
  const write = (chunk: Buffer) => {
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      res.destroy();
      return;
    }
    res.write(chunk);
    deps.sessions.sent(session, chunk.length, Date.now());
  };
  // Start at a keyframe, so the player can decode from the first byte: prepush seconds back, at once.
  for (const part of prepushStart(bus.segmenter, runtime.spec.prepushSeconds ?? 0)) write(part);
  const unsubscribe = bus.subscribe(write);
  // The stream restarting (a new bus) or the session closed by the operator ends the response.
  const watch = setInterval(() => {
    if (runtime.bus !== bus || deps.sessions.isClosed(session)) res.end();
  }, 1000);
  res.once('close', () => {
    clearInterval(watch);
    unsubscribe();
    session.openResponses--;
  });
}
