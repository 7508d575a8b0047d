import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine/engine.js';
import type { HlsDrm } from '../drm/hls-drm.js';
import { LiveFmp4 } from '../media/fmp4/fmp4-live.js';
import { masterPlaylist } from '../media/hls-playlist.js';
import type { HlsSegmenter } from '../media/hls-segmenter.js';
import { segmentBitRates } from '../media/segment-bit-rates.js';
import type { ClientSession, ClientSessions } from './client-sessions.js';
import { waitForFirstMedia } from './first-media-wait.js';
import { COMMON_HEADERS, send } from './respond.js';

/**
 * Live fMP4 (CMAF) HLS beside the TS HLS of a stream: /{name}/index.fmp4.m3u8 (what Flussonic's
 * DVR player and other hls.js players ask for), its media playlist video.fmp4.m3u8, the inits
 * fmp4-init-{checksum}.mp4 and the fragments fmp4-{sequence}.m4s, remuxed from the same segments.
 */
export const FMP4_RESOURCE =
  /^(?:(?:index|video)\.fmp4\.m3u8|fmp4-init-[0-9a-f]{8}\.mp4|fmp4-\d{1,15}\.m4s)$/;

export interface Fmp4HlsDeps {
  engine: Engine;
  sessions: ClientSessions;
  drm: HlsDrm;
}

/** One packager per segmenter: a restarted stream (a new bus) starts a new one, the old one goes with it. */
const packagers = new WeakMap<HlsSegmenter, LiveFmp4>();
const packagerOf = (segmenter: HlsSegmenter): LiveFmp4 => {
  let packager = packagers.get(segmenter);
  if (!packager) packagers.set(segmenter, (packager = new LiveFmp4(segmenter)));
  return packager;
};

/** How long a playlist request waits for the first segment of a stream that is just starting. */
const FIRST_SEGMENT_WAIT_MS = 10_000;
const PLAYLIST = 'application/vnd.apple.mpegurl';

/** Answers one fMP4 HLS resource to a session that passed play authorization. */
export async function serveFmp4Hls(
  deps: Fmp4HlsDeps,
  name: string,
  resource: string,
  token: string | undefined,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // AES-128 applies to TS segments only: fMP4 would hand out the clear stream.
  if (deps.drm.encrypted(name))
    return fail(res, 403, `stream ${name} is encrypted (drm aes128): only TS HLS is served`);
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  if (resource.endsWith('.m3u8')) return servePlaylist(deps, name, resource, query, session, req, res);
  const bus = deps.engine.get(name)?.bus;
  const packager = bus ? packagerOf(bus.segmenter) : undefined;
  const init = /^fmp4-init-([0-9a-f]{8})\.mp4$/.exec(resource)?.[1];
  if (init !== undefined) {
    const bytes = packager?.init(init);
    if (!bytes) return fail(res, 404, `init ${init} of ${name} is not (or no longer) available`);
    return send(deps.sessions, session, req, res, 'video/mp4', bytes, 'max-age=60');
  }
  const sequence = Number(/^fmp4-(\d+)\.m4s$/.exec(resource)![1]);
  const fragment = packager?.fragment(sequence);
  if (!fragment) return fail(res, 404, `fragment ${sequence} of ${name} is not (or no longer) available`);
  // A fragment never changes once cut, as the segment it is made of.
  send(deps.sessions, session, req, res, 'video/iso.segment', fragment, 'max-age=60');
}

async function servePlaylist(
  deps: Fmp4HlsDeps,
  name: string,
  resource: string,
  query: string,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // A playlist request is what wakes an on-demand stream.
  const runtime = deps.engine.touch(name);
  if (!runtime || runtime.spec.disabled) return fail(res, 404, `stream ${name} is disabled`);
  if (!(await waitForFirstMedia(runtime, session, FIRST_SEGMENT_WAIT_MS)))
    return fail(res, 404, `stream ${name} has no media yet`);
  const bus = runtime.bus;
  if (!bus) return fail(res, 404, `stream ${name} is not running`);
  const packager = packagerOf(bus.segmenter);
  const media = packager.playlist(query);
  if (!media)
    return fail(
      res,
      404,
      `stream ${name} has no media fMP4 HLS can carry yet (H.264 or HEVC video, AAC audio)`,
    );
  if (resource === 'video.fmp4.m3u8')
    return send(deps.sessions, session, req, res, PLAYLIST, media, 'no-cache');
  const rates = segmentBitRates(bus.segmenter.segments, runtime.spec.segmentDurationMs);
  if (!rates) return fail(res, 404, `stream ${name} has no media yet`);
  // BANDWIDTH from the TS segments: fMP4 carries the same media in fewer bytes, so it is an upper bound.
  const body = masterPlaylist([
    {
      uri: `video.fmp4.m3u8${query}`,
      bandwidth: rates.peakBps,
      averageBandwidth: rates.averageBps,
      codecs: packager.current?.codecs ?? [],
      resolution: packager.current?.resolution,
    },
  ]);
  send(deps.sessions, session, req, res, PLAYLIST, body, 'no-cache');
}

/** A refusal as the API answers one: JSON {error} naming what was wrong. */
function fail(res: ServerResponse, status: number, error: string): void {
  const body = JSON.stringify({ error });
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-cache',
  });
  res.end(body);
}
