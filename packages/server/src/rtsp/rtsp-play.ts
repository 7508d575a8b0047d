import { authorizedSession, type MaybePromise } from '../auth/play-gate.js';
import type { PlayAuth } from '../auth/play-auth.js';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { protocolAllowed } from '../delivery/protocols.js';
import type { Engine } from '../engine/engine.js';
import { RtspFeed } from './rtsp-feed.js';

export interface RtspPlayDeps {
  engine: Engine;
  sessions: ClientSessions;
  /** Play authorization, as for HTTP playback. */
  auth: PlayAuth;
  /** Streams whose output is encrypted (HLS only): refused here. */
  encrypted: (name: string) => boolean;
}

/** Who asks to play: the stream, the token of the URL, where from. */
export interface RtspPlayRequest {
  stream: string;
  token: string | undefined;
  ip: string;
  userAgent: string;
}

/** An authorized player's hold on its stream: the feed to join, the session to count bytes in. */
export interface RtspViewer {
  feed: RtspFeed;
  session: ClientSession;
  /** Bytes sent to the player (session traffic); false once the operator closed the session. */
  sent(bytes: number): boolean;
  /** The player went: its session's open response ends. */
  release(): void;
}

/** A feed no player used for this long is stopped (a DESCRIBE with no PLAY after it). */
const IDLE_FEED_MS = 15_000;

/**
 * RTSP play (spec 000 §9: rtsp /static/{name}): the same play authorization and client sessions
 * as HLS (auth/play-gate.ts, type 'rtsp'), and one RtspFeed per stream shared by its players.
 */
export class RtspPlayers {
  private readonly feeds = new Map<string, RtspFeed>();
  private readonly watcher: NodeJS.Timeout;

  constructor(private readonly deps: RtspPlayDeps) {
    // A stream restarted or stopped has a new bus (or none): its feed stops and its players end.
    this.watcher = setInterval(() => this.sweep(Date.now()), 1000);
    this.watcher.unref();
  }

  close(): void {
    clearInterval(this.watcher);
    for (const feed of this.feeds.values()) feed.stop();
    this.feeds.clear();
  }

  /** Play authorization and a session; the stream woken if it runs on demand. */
  authorize(request: RtspPlayRequest): MaybePromise<RtspViewer | { refused: string; status: number }> {
    const name = request.stream;
    const known = this.deps.engine.get(name);
    if (!known) return { refused: `no stream ${name}`, status: 404 };
    if (!protocolAllowed(known.spec.protocols, 'rtsp'))
      return { refused: `rtsp is switched off for stream ${name}`, status: 403 };
    if (this.deps.encrypted(name))
      return { refused: `stream ${name} is encrypted (drm aes128): only HLS is served`, status: 403 };
    const session = authorizedSession(
      this.deps.auth,
      this.deps.sessions,
      {
        stream: name,
        type: 'rtsp',
        ip: request.ip,
        userAgent: request.userAgent,
        token: request.token,
        referer: undefined,
      },
      known.spec.maxSessions,
      () => (this.deps.engine.touch(name)?.bus ? undefined : { refused: `no running stream ${name}` }),
    );
    const viewer = (s: Awaited<typeof session>) => {
      if ('refused' in s) return { refused: s.refused, status: s.status === 429 ? 453 : statusOf(s.refused) };
      const bus = this.deps.engine.get(name)?.bus;
      if (!bus) return { refused: `stream ${name} stopped`, status: 503 };
      return this.viewer(name, s);
    };
    return session instanceof Promise ? session.then(viewer) : viewer(session);
  }

  private viewer(name: string, session: ClientSession): RtspViewer {
    const bus = this.deps.engine.get(name)!.bus!;
    let feed = this.feeds.get(name);
    if (!feed || feed.bus !== bus) {
      feed?.stop();
      feed = new RtspFeed(name, bus);
      this.feeds.set(name, feed);
    }
    feed.lastUsedMs = Date.now();
    session.openResponses++;
    let released = false;
    const { sessions } = this.deps;
    return {
      feed,
      session,
      sent: (bytes) => {
        if (sessions.isClosed(session)) return false;
        sessions.sent(session, bytes, Date.now());
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        session.openResponses--;
      },
    };
  }

  private sweep(nowMs: number): void {
    for (const [name, feed] of this.feeds) {
      const moved = this.deps.engine.get(name)?.bus !== feed.bus;
      const idle = feed.players.size === 0 && nowMs - feed.lastUsedMs > IDLE_FEED_MS;
      if (!moved && !idle) continue;
      this.feeds.delete(name);
      feed.stop();
    }
  }
}

/** The RTSP status of a play refusal (RFC 2326 §7.1.1). */
function statusOf(reason: string): number {
  if (reason.startsWith('access denied')) return 403;
  if (reason.startsWith('no running stream')) return 503;
  return 453;
}
