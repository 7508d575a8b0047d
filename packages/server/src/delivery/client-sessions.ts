import { randomBytes } from 'node:crypto';
import type { ClientCounter } from '../engine/engine.js';
import type { ClientFigures } from '../engine/stream-runtime.js';
import { RateWindow } from '../media/rate-window.js';

export type SessionType = 'hls' | 'mss' | 'mpegts' | 'dash' | 'rtmp' | 'mp4' | 'rtsp' | 'webrtc' | 'srt';

/** One player of one stream (spec 001 §3 "Session"), known by its token, else by ip and user agent. */
export interface ClientSession {
  id: string;
  stream: string;
  type: SessionType;
  ip: string;
  userAgent: string;
  token: string | undefined;
  /** Two-letter country of the ip ('' unknown), looked up once. */
  country: string;
  /** The viewer, as an auth backend named them (X-UserId). */
  userId: string | undefined;
  createdAt: number;
  lastSeenAt: number;
  bytesSent: number;
  /** Responses still being written (a continuous TS connection lasts as long as the player). */
  openResponses: number;
}

export interface RequestIdentity {
  stream: string;
  type: SessionType;
  ip: string;
  userAgent: string;
  token: string | undefined;
}

/** What the session log, the country lookup and the config give the sessions (auth/access-services.ts). */
export interface SessionHooks {
  countryOf?: (ip: string) => string;
  /** A session ended (gone quiet, closed by the operator, the stream removed, the server stopping). */
  onClose?: (session: ClientSession, nowMs: number) => void;
  /** Sessions one address may have open, and start in any minute (config max_sessions_per_ip). */
  maxPerIp?: () => number;
  /** How long a session may be quiet before it ends, in ms (config session_idle_seconds). */
  idleMs?: () => number;
}

/** A request that gets no session; `status` 429 when the client is over its address's limit. */
export interface SessionRefusal {
  refused: string;
  status?: 429;
}

/** session_idle_seconds when the config gives none (docs/config.md). */
export const SESSION_IDLE_SECONDS = 20;
/** max_sessions_per_ip when the config gives none (docs/config.md). */
export const MAX_SESSIONS_PER_IP = 100;
/** The window the per-address count of new sessions is kept over. */
const NEW_SESSIONS_WINDOW_MS = 60_000;

/** Sessions of one client address: open now, and started in the current minute's window. */
interface AddressCount {
  open: number;
  windowStartedAt: number;
  started: number;
}

interface StreamTotals {
  bytesOut: number;
  out: RateWindow;
  lastAccessAt: number | undefined;
  sessions: Set<ClientSession>;
}

/**
 * Every playback request belongs to a session; sessions carry the bytes and duration the clients
 * tab shows, and their totals are the stream's client_count and bytes_out. An HLS player is a
 * series of short requests, so its session lives until it has been quiet for `idleMs`.
 */
export class ClientSessions implements ClientCounter {
  private readonly byKey = new Map<string, ClientSession>();
  private readonly byId = new Map<string, ClientSession>();
  private readonly streams = new Map<string, StreamTotals>();
  private readonly out = new RateWindow(5);
  /** Keys of sessions closed by close_sessions: their next requests are refused until they go quiet. */
  private readonly refused = new Map<string, number>();
  /**
   * Per client address: each request with a new token or user agent is a new session (and a row
   * in the session log), so an anonymous client cycling them is held to max_sessions_per_ip.
   */
  private readonly addresses = new Map<string, AddressCount>();
  /** Sessions let in by the admin token or a cluster proof: not counted against their address. */
  private readonly exempt = new WeakSet<ClientSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly idleMs = SESSION_IDLE_SECONDS * 1000,
    private readonly hooks: SessionHooks = {},
  ) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), 1000);
    this.sweeper.unref();
  }

  /**
   * The session a request belongs to, created if new; a refusal when the session was closed by
   * close_sessions, when it would be one more than the stream's `maxSessions`, or (429) when its
   * address has max_sessions_per_ip open or started that many in the last minute (`exempt` skips it).
   */
  open(
    who: RequestIdentity,
    nowMs: number,
    maxSessions?: number,
    details: { id?: string; userId?: string; exempt?: boolean } = {},
  ): ClientSession | SessionRefusal {
    const key = keyOf(who);
    const refusedAt = this.refused.get(key);
    if (refusedAt !== undefined) {
      this.refused.set(key, nowMs);
      return { refused: 'this session was closed' };
    }
    let session = this.byKey.get(key);
    if (!session && maxSessions !== undefined && this.totals(who.stream).sessions.size >= maxSessions) {
      return { refused: `stream ${who.stream} has its ${maxSessions} sessions already (max_sessions)` };
    }
    if (!session && !details.exempt) {
      const busy = this.addressBusy(who.ip, nowMs);
      if (busy) return { refused: busy, status: 429 };
    }
    if (!session) {
      session = {
        id: details.id ?? randomBytes(8).toString('hex'),
        ...who,
        country: this.hooks.countryOf?.(who.ip) ?? '',
        userId: details.userId,
        createdAt: nowMs,
        lastSeenAt: nowMs,
        bytesSent: 0,
        openResponses: 0,
      };
      this.byKey.set(key, session);
      this.byId.set(session.id, session);
      this.totals(who.stream).sessions.add(session);
      if (details.exempt) this.exempt.add(session);
      else this.countAddress(who.ip, nowMs);
    }
    if (details.userId) session.userId = details.userId;
    session.lastSeenAt = nowMs;
    this.totals(who.stream).lastAccessAt = nowMs;
    return session;
  }

  /** The id of the session this request would join, if it exists already. */
  existingId(who: RequestIdentity): string | undefined {
    return this.byKey.get(keyOf(who))?.id;
  }

  /** Counts bytes written to a session's player. */
  sent(session: ClientSession, bytes: number, nowMs: number): void {
    session.bytesSent += bytes;
    session.lastSeenAt = nowMs;
    const totals = this.totals(session.stream);
    totals.lastAccessAt = nowMs;
    totals.bytesOut += bytes;
    totals.out.add(bytes, nowMs);
    this.out.add(bytes, nowMs);
  }

  /**
   * close_sessions: ends these sessions; their players are refused until they give up. Returns how
   * many were found. With `refuse` false (play authorization withdrawn) a player's next request is
   * a new session, asked about again.
   */
  close(ids: readonly string[], nowMs: number, refuse = true): number {
    let closed = 0;
    for (const id of ids) {
      const session = this.byId.get(id);
      if (!session) continue;
      if (refuse) this.refused.set(keyOf(session), nowMs);
      this.remove(session);
      closed++;
    }
    return closed;
  }

  isClosed(session: ClientSession): boolean {
    return !this.byId.has(session.id);
  }

  list(stream: string): ClientSession[] {
    return [...(this.streams.get(stream)?.sessions ?? [])];
  }

  /** Every open session (play authorization checks them again: auth/revalidator.ts). */
  all(): ClientSession[] {
    return [...this.byId.values()];
  }

  figures(stream: string, nowMs: number): ClientFigures {
    const totals = this.streams.get(stream);
    if (!totals)
      return { count: 0, bytesOut: 0, lastAccessAt: undefined, outBytesPerSecond: 0, openResponses: 0 };
    let open = 0;
    for (const s of totals.sessions) open += s.openResponses;
    return {
      count: totals.sessions.size,
      bytesOut: totals.bytesOut,
      lastAccessAt: totals.lastAccessAt,
      outBytesPerSecond: totals.out.perSecond(nowMs),
      openResponses: open,
    };
  }

  totalClients(): number {
    return this.byId.size;
  }

  outBytesPerSecond(nowMs: number): number {
    return this.out.perSecond(nowMs);
  }

  /** Forgets a stream's totals (the stream was deleted). */
  dropStream(stream: string): void {
    for (const session of this.list(stream)) this.remove(session);
    this.streams.delete(stream);
  }

  /** Ends every session (the server is stopping): each is logged as closed now. */
  stop(): void {
    clearInterval(this.sweeper);
    for (const session of [...this.byId.values()]) this.remove(session);
  }

  private sweep(nowMs: number): void {
    const idleMs = this.hooks.idleMs?.() ?? this.idleMs;
    for (const session of this.byId.values()) {
      if (session.openResponses === 0 && nowMs - session.lastSeenAt > idleMs) this.remove(session);
    }
    for (const [key, at] of this.refused) if (nowMs - at > idleMs) this.refused.delete(key);
    for (const [ip, count] of this.addresses)
      if (count.open === 0 && nowMs - count.windowStartedAt >= NEW_SESSIONS_WINDOW_MS)
        this.addresses.delete(ip);
  }

  /** Why `ip` may start no session now, if it may not. */
  private addressBusy(ip: string, nowMs: number): string | undefined {
    const count = this.addresses.get(ip);
    if (!count) return undefined;
    const limit = this.hooks.maxPerIp?.() ?? MAX_SESSIONS_PER_IP;
    if (count.open >= limit) return `${ip} has ${limit} sessions open already (max_sessions_per_ip)`;
    if (nowMs - count.windowStartedAt >= NEW_SESSIONS_WINDOW_MS) {
      count.windowStartedAt = nowMs;
      count.started = 0;
    }
    if (count.started >= limit)
      return `${ip} started ${limit} sessions in the last minute (max_sessions_per_ip), try again later`;
    return undefined;
  }

  private countAddress(ip: string, nowMs: number): void {
    const count = this.addresses.get(ip);
    if (count) {
      count.open++;
      count.started++;
    } else this.addresses.set(ip, { open: 1, windowStartedAt: nowMs, started: 1 });
  }

  private remove(session: ClientSession): void {
    if (!this.byId.delete(session.id)) return;
    this.byKey.delete(keyOf(session));
    this.streams.get(session.stream)?.sessions.delete(session);
    const count = this.exempt.has(session) ? undefined : this.addresses.get(session.ip);
    if (count) count.open--;
    this.hooks.onClose?.(session, Date.now());
  }

  private totals(stream: string): StreamTotals {
    let totals = this.streams.get(stream);
    if (!totals) {
      totals = { bytesOut: 0, out: new RateWindow(5), lastAccessAt: undefined, sessions: new Set() };
      this.streams.set(stream, totals);
    }
    return totals;
  }
}

function keyOf(who: Pick<RequestIdentity, 'stream' | 'type' | 'ip' | 'userAgent' | 'token'>): string {
  return who.token
    ? `${who.stream}\0${who.type}\0t\0${who.token}`
    : `${who.stream}\0${who.type}\0${who.ip}\0${who.userAgent}`;
}
