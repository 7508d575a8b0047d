import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HlsDrm } from '../drm/hls-drm.js';
import type { Engine } from '../engine/engine.js';
import { masterPlaylist } from '../media/hls-playlist.js';
import { segmentBitRates } from '../media/segment-bit-rates.js';
import type { ClientSession, ClientSessions } from './client-sessions.js';
import { waitForFirstMedia } from './first-media-wait.js';
import { directiveMet, parseLlDirectives } from './llhls-query.js';
import { type LlStream, llStreamOf } from './llhls-streams.js';
import { COMMON_HEADERS, send } from './respond.js';

/**
 * Low-Latency HLS (RFC 8216bis) of a stream: /{name}/index.ll.m3u8 (master), video.ll.m3u8 (media
 * playlist with parts, blocking reload), ll-init-{crc}.mp4, ll-{msn}.m4s (whole segments) and
 * ll-part-{n}.m4s (parts; the preload-hinted one is held until it is cut).
 */
export const LLHLS_RESOURCE =
  /^(?:(?:index|video)\.ll\.m3u8|ll-init-[0-9a-f]{8}\.mp4|ll-\d{1,15}\.m4s|ll-part-\d{1,15}\.m4s)$/;

export interface LlHlsDeps {
  engine: Engine;
  sessions: ClientSessions;
  drm: HlsDrm;
}

const PLAYLIST = 'application/vnd.apple.mpegurl';
/** How long a first request waits for a starting stream's first part. */
const FIRST_PART_WAIT_MS = 10_000;
/** RFC 8216bis §6.2.5.2: a blocking request not met within three target durations gets 503. */
const HOLD_TARGET_DURATIONS = 3;

/** Answers one LL-HLS resource to a session that passed play authorization. */
export async function serveLlHls(
  deps: LlHlsDeps,
  name: string,
  resource: string,
  token: string | undefined,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (deps.drm.encrypted(name))
    return fail(res, 403, `stream ${name} is encrypted (drm aes128): only TS HLS is served`);
  // A playlist request is what wakes an on-demand stream.
  const runtime = resource.endsWith('.m3u8') ? deps.engine.touch(name) : deps.engine.get(name);
  if (!runtime || runtime.spec.disabled) return fail(res, 404, `stream ${name} is disabled`);
  if (resource.endsWith('.m3u8') && !(await waitForFirstMedia(runtime, session, FIRST_PART_WAIT_MS)))
    return fail(res, 404, `stream ${name} has no media yet`);
  const bus = runtime.bus;
  if (!bus) return fail(res, 404, `stream ${name} is not running`);
  const ll = llStreamOf(runtime, bus);
  const holdMs = ll.packager.targetDurationS * HOLD_TARGET_DURATIONS * 1000;
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const reply = (type: string, body: Buffer | string, cache: string) =>
    send(deps.sessions, session, req, res, type, body, cache);

  if (resource.endsWith('.m3u8')) {
    const url = req.url ?? '';
    const directives = parseLlDirectives(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    if ('error' in directives) return fail(res, 400, directives.error);
    // A packager just started lists whole segments at once (its backlog) unless the stream just
    // (re)started: then the first one is whole within a segment duration. Players that do not read
    // parts (ffmpeg's) need one to start from.
    const started = () => ll.packager.hasWholeSegment;
    if (!(await held(ll, res, started, FIRST_PART_WAIT_MS, session))) {
      const why = ll.packager.unsupported ?? 'no part cut yet (H.264 or HEVC video with AAC)';
      return fail(res, res.destroyed ? 499 : 404, `stream ${name} has no LL-HLS: ${why}`);
    }
    if (resource === 'index.ll.m3u8') {
      const rates = segmentBitRates(bus.segmenter.segments, runtime.spec.segmentDurationMs);
      const current = ll.packager.current;
      const body = masterPlaylist([
        {
          uri: `video.ll.m3u8${query}`,
          bandwidth: rates?.peakBps ?? 0,
          averageBandwidth: rates?.averageBps ?? 0,
          codecs: current?.codecs ?? [],
          resolution: current?.resolution,
        },
      ]);
      return reply(PLAYLIST, body, 'no-cache');
    }
    if (directives.msn !== undefined) {
      const { msn, part } = directives;
      const position = ll.packager.position!;
      // §6.2.5.2: more than two segments past the newest cannot come within the hold: 400.
      if (msn > position.msn + 2)
        return fail(res, 400, `_HLS_msn ${msn} is more than two segments past the newest (${position.msn})`);
      const met = () => directiveMet(ll.packager.position!, msn, part);
      if (!(await held(ll, res, met, holdMs, session))) {
        if (res.destroyed) return;
        return fail(res, 503, `segment ${msn}${part !== undefined ? ` part ${part}` : ''} not ready in time`);
      }
    }
    // _HLS_skip (YES, or v2: this server has no date ranges to skip): a delta update.
    return reply(PLAYLIST, ll.packager.playlist(query, directives.skip !== undefined)!, 'no-cache');
  }
  const init = /^ll-init-([0-9a-f]{8})\.mp4$/.exec(resource)?.[1];
  if (init !== undefined) {
    const bytes = ll.packager.init(init);
    if (!bytes) return fail(res, 404, `init ${init} of ${name} is not (or no longer) available`);
    return reply('video/mp4', bytes, 'max-age=60');
  }
  const partNumber = /^ll-part-(\d+)\.m4s$/.exec(resource)?.[1];
  if (partNumber !== undefined) return servePart(ll, Number(partNumber), holdMs, session, res, reply);
  const msn = Number(/^ll-(\d+)\.m4s$/.exec(resource)![1]);
  const segment = ll.packager.segment(msn);
  if (!segment) return fail(res, 404, `segment ${msn} of ${name} is not (or not yet, or no longer) whole`);
  reply('video/iso.segment', segment, 'max-age=60');
}

/** A part; the next one (the preload hint) is held until it is cut, then sent. */
async function servePart(
  ll: LlStream,
  number: number,
  holdMs: number,
  session: ClientSession,
  res: ServerResponse,
  reply: (type: string, body: Buffer, cache: string) => void,
): Promise<void> {
  let bytes = ll.packager.part(number);
  // The hinted part and the one after it (a player that read the hint just before a part was cut).
  if (!bytes && number >= ll.packager.nextPart && number <= ll.packager.nextPart + 1) {
    const cut = await held(ll, res, () => ll.packager.part(number) !== undefined, holdMs, session);
    if (!cut && res.destroyed) return;
    bytes = ll.packager.part(number);
  }
  if (!bytes) return fail(res, 404, `part ${number} is not (or no longer) available`);
  reply('video/iso.segment', bytes, 'max-age=60');
}

/** Holds the request until `met`, counted as an open response of the session meanwhile. */
async function held(
  ll: LlStream,
  res: ServerResponse,
  met: () => boolean,
  timeoutMs: number,
  session: ClientSession,
): Promise<boolean> {
  const hold = ll.holds.hold(met, timeoutMs, res);
  if (!hold) {
    fail(res, 503, `too many LL-HLS requests held on this stream (${ll.holds.size})`);
    return false;
  }
  session.openResponses++;
  try {
    return await hold;
  } finally {
    session.openResponses--;
    ll.touch();
  }
}

/** A refusal as the API answers one: JSON {error} naming what was wrong. */
function fail(res: ServerResponse, status: number, error: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify({ error });
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-cache',
  });
  res.end(body);
}
