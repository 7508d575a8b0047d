import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlayAuth } from '../auth/play-auth.js';
import { authorizedSession, whenReady } from '../auth/play-gate.js';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { waitForFirstMedia } from '../delivery/first-media-wait.js';
import { protocolAllowed } from '../delivery/protocols.js';
import { refuse, send } from '../delivery/respond.js';
import type { HlsDrm } from '../drm/hls-drm.js';
import type { Engine } from '../engine/engine.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';
import { MIN_LISTED, MssLive } from './mss-live.js';
import { type MssRequest, parseMssPath } from './mss-url.js';

export interface MssDeps {
  engine: Engine;
  sessions: ClientSessions;
  auth: PlayAuth;
  drm: HlsDrm;
}

/** One packager per bus: a restarted stream (a new bus) starts a new one; the old one stops. */
const lives = new WeakMap<PacketBus, { live: MssLive; usedAt: number }>();
/** The packager lets go of its segments this long after the last request. */
const IDLE_STOP_MS = 30_000;
const IDLE_CHECK_MS = 5_000;

function liveOf(runtime: StreamRuntime, bus: PacketBus): MssLive {
  const known = lives.get(bus);
  if (known) {
    known.usedAt = Date.now();
    return known.live;
  }
  const entry = { live: new MssLive(bus.segmenter), usedAt: Date.now() };
  lives.set(bus, entry);
  const idle = setInterval(() => {
    if (runtime.bus === bus && Date.now() - entry.usedAt < IDLE_STOP_MS) return;
    clearInterval(idle);
    entry.live.stop();
    lives.delete(bus);
  }, IDLE_CHECK_MS);
  idle.unref();
  return entry.live;
}

/** How long a manifest request waits for a starting stream's first segment. */
const FIRST_MEDIA_WAIT_MS = 10_000;
/** The newest fragment is held until the next is cut: at most this many target durations. */
const HOLD_TARGET_DURATIONS = 3;
/** A peer's malformed URLs are noted in the stream's log at most this often. */
const NOTE_EVERY_MS = 10_000;
const lastNoted = new WeakMap<StreamRuntime, number>();

/**
 * Smooth Streaming of live streams (docs/media.md): GET /{name}.isml/manifest and the fragments it
 * names, under the `mss` protocol switch, with the play authorization and client sessions of HLS
 * (type `mss`). Returns false for a path that is not Smooth Streaming of a configured stream.
 */
export function mssHandler(deps: MssDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!path.includes('.isml/')) return false;
    const parsed = parseMssPath(path);
    const runtime = parsed && deps.engine.get(parsed.name);
    if (!parsed || !runtime) return false;
    const name = parsed.name;
    if ('error' in parsed) {
      const now = Date.now();
      if (now - (lastNoted.get(runtime) ?? 0) > NOTE_EVERY_MS) {
        lastNoted.set(runtime, now);
        runtime.log.note(`mss: ${req.socket.remoteAddress ?? ''} asked for a bad URL: ${parsed.error}`);
      }
      refuse(res, 400, parsed.error);
      return true;
    }
    if (!protocolAllowed(runtime.spec.protocols, 'mss')) {
      refuse(res, 403, `mss is switched off for stream ${name}`);
      return true;
    }
    if (deps.drm.encrypted(name)) {
      refuse(res, 403, `stream ${name} is encrypted (drm aes128): only HLS is served`);
      return true;
    }
    const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const proof = req.headers['x-sluice-cluster'] !== undefined || params.has('cluster');
    const request = {
      stream: name,
      type: 'mss' as const,
      ip: req.socket.remoteAddress ?? '',
      userAgent: req.headers['user-agent'] ?? '',
      token: params.get('token') ?? undefined,
      referer: req.headers.referer,
      cluster: proof ? { url, headers: req.headers } : undefined,
    };
    whenReady(authorizedSession(deps.auth, deps.sessions, request, runtime.spec.maxSessions), (session) => {
      if ('refused' in session) refuse(res, session.status ?? 403, session.refused);
      else
        serve(deps, name, parsed.request, session, req, res).catch((error: Error) => {
          // A fault of this request ends it alone; the stream and other players go on.
          runtime.log.note(`mss: ${req.url ?? ''}: ${error.message}`);
          if (res.headersSent) res.destroy();
          else refuse(res, 500, `Smooth Streaming of ${name} failed: ${error.message}`);
        });
    });
    return true;
  };
}

async function serve(
  deps: MssDeps,
  name: string,
  request: MssRequest,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // A manifest request is what wakes an on-demand stream.
  const runtime = request.kind === 'manifest' ? deps.engine.touch(name) : deps.engine.get(name);
  if (!runtime || runtime.spec.disabled) return refuse(res, 404, `stream ${name} is disabled`);
  if (request.kind === 'manifest' && !(await waitForFirstMedia(runtime, session, FIRST_MEDIA_WAIT_MS)))
    return refuse(res, 404, `stream ${name} has no media yet`);
  const bus = runtime.bus;
  if (!bus) return refuse(res, 404, `stream ${name} is not running`);
  const live = liveOf(runtime, bus);
  const holdMs = runtime.spec.segmentDurationMs * HOLD_TARGET_DURATIONS;
  const held = async (wait: () => Promise<boolean>) => {
    session.openResponses++;
    try {
      return await wait();
    } finally {
      session.openResponses--;
    }
  };

  if (request.kind === 'manifest') {
    // With no UTCTiming in Smooth Streaming, dash.js places the live edge by the manifest's Date
    // header; an embed on another site reads it only when exposed (else dash.js error 16).
    res.setHeader('access-control-expose-headers', 'Date');
    // The manifest lists MIN_LISTED fragments whose next one is cut: a stream just started has
    // fewer, and dash.js would keep no buffer (mss-live.ts).
    let manifest = live.manifest();
    const deadline = Date.now() + FIRST_MEDIA_WAIT_MS + (MIN_LISTED + 1) * runtime.spec.segmentDurationMs;
    while (!manifest && !res.destroyed && Date.now() < deadline) {
      await held(() => live.nextSegment(deadline - Date.now()));
      manifest = live.manifest();
    }
    if (!manifest) {
      const why = live.unsupported ?? `fewer than ${MIN_LISTED + 1} whole segments yet`;
      return refuse(res, 404, `stream ${name} has no Smooth Streaming (H.264 and AAC): ${why}`);
    }
    return send(deps.sessions, session, req, res, 'text/xml; charset=utf-8', manifest, 'no-cache');
  }
  // Bitrates are fixed by the first manifest; a player may come with one from before a restart.
  if (live.bitrate(request.track) === undefined) live.manifest();
  const offered = live.bitrate(request.track);
  if (offered !== request.bitrate)
    return refuse(
      res,
      404,
      offered
        ? `no quality level ${request.bitrate} in the ${request.track} of stream ${name} (it has ${offered})`
        : `stream ${name} has no ${request.track} in Smooth Streaming`,
    );
  let answer = live.fragment(request.track, request.time);
  if ('wait' in answer && (await held(() => live.nextSegment(holdMs))))
    answer = live.fragment(request.track, request.time);
  if ('wait' in answer)
    return refuse(res, 404, `${request.track} fragment ${request.time} of ${name} is not complete yet`);
  if ('error' in answer) return refuse(res, answer.status, answer.error);
  send(deps.sessions, session, req, res, 'video/mp4', answer.fragment, 'max-age=60');
}
