import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What an HTTP connection may cost the server: time while it sends nothing useful, and count. */
export interface ConnectionLimits {
  /** From accepting a connection until its first request's headers are complete. */
  headersTimeoutMs: number;
  /** From a request's headers until its body is complete (a body trickled a byte at a time). */
  requestTimeoutMs: number;
  /**
   * A kept-alive connection with no request in progress, from the end of the last answer until
   * the next request's headers are complete. Playback answers (MPEG-TS, a websocket) are in
   * progress for as long as they last, so this never cuts them.
   */
  idleTimeoutMs: number;
  /** Open HTTP connections one address may hold; more are answered 503 and closed at once. */
  perAddress: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 15_000,
  // 200 players behind one NAT address (an office, a hotel) each keep a connection or two.
  // SLUICE_HTTP_CONNECTIONS_PER_ADDRESS: more for a proxy or CDN edge on one address, or a bench.
  perAddress: Number(process.env.SLUICE_HTTP_CONNECTIONS_PER_ADDRESS) || 256,
};

interface Watched {
  /** The headers or idle deadline; undefined while a request is in progress or after an upgrade. */
  timer: NodeJS.Timeout | undefined;
  requestsInProgress: number;
}

/** A whole answer written straight to a socket the HTTP server has no answer in progress on. */
const rawAnswer = (status: string, error: string): string => {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
};

const REQUEST_TIMEOUT_ANSWER = rawAnswer('408 Request Timeout', 'the request was not sent in time');

/** The body deadline of each request in progress, so a route that streams its body can lift it. */
const bodyDeadlines = new WeakMap<IncomingMessage, NodeJS.Timeout>();

/**
 * Lifts the request's whole-body deadline (requestTimeoutMs): for a route that streams a body of
 * any length to disk (a multi-GB VOD upload takes minutes) and watches for a stalled sender itself.
 */
export function releaseBodyDeadline(req: IncomingMessage): void {
  clearTimeout(bodyDeadlines.get(req));
  bodyDeadlines.delete(req);
}

/**
 * Header, request and idle timeouts for connections handed to the HTTP server by hand
 * (listeners.ts emits 'connection'). Node enforces its own headersTimeout and requestTimeout only
 * on connections it tracks, which it starts doing when the server itself listens: a server fed by
 * 'connection' events never gets them, so a client sending a header byte a second (slowloris)
 * held its connection forever. Per socket: one deadline while it sends headers or sits idle, one
 * per request while its body arrives, none while an answer is being sent.
 */
export class ConnectionTimeouts {
  private readonly watched = new WeakMap<Socket, Watched>();

  constructor(
    private readonly http: HttpServer,
    private readonly limits: ConnectionLimits = CONNECTION_LIMITS,
  ) {
    // Node's own idle close (socket inactivity after an answer) and the Keep-Alive header it sends.
    http.keepAliveTimeout = limits.idleTimeoutMs;
    // prepend: the deadline is cleared before the handler runs, which may answer synchronously.
    http.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.onRequest(req, res));
    http.prependListener('upgrade', (req: IncomingMessage, socket: Socket) => this.onUpgrade(socket));
  }

  /** Starts the headers deadline of a connection just accepted. */
  watch(socket: Socket): void {
    const entry: Watched = { timer: undefined, requestsInProgress: 0 };
    this.watched.set(socket, entry);
    this.arm(socket, entry, this.limits.headersTimeoutMs, () => expire(socket, true));
    socket.once('close', () => clearTimeout(entry.timer));
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const entry = this.watched.get(socket);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.requestsInProgress++;
    // `complete` turns true when the parser has read the whole body, whoever reads it.
    const bodyTimer = req.complete
      ? undefined
      : setTimeout(() => {
          if (!req.complete) expire(socket, !res.headersSent);
        }, this.limits.requestTimeoutMs);
    if (bodyTimer) bodyDeadlines.set(req, bodyTimer);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(bodyTimer);
      entry.requestsInProgress--;
      if (entry.requestsInProgress === 0 && !socket.destroyed)
        this.arm(socket, entry, this.limits.idleTimeoutMs, () => socket.destroy());
    };
    res.once('finish', end);
    res.once('close', end);
  }

  private onUpgrade(socket: Socket): void {
    const entry = this.watched.get(socket);
    if (entry) {
      // A websocket lives as long as its peer wants; it has its own pings.
      clearTimeout(entry.timer);
      entry.timer = undefined;
    }
    // Node hands an upgrade to 'upgrade' listeners only when there are some, and this is one:
    // with no other, nothing would answer it.
    if (this.http.listenerCount('upgrade') === 1) socket.destroy();
  }

  private arm(socket: Socket, entry: Watched, ms: number, onExpiry: () => void): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(onExpiry, ms);
    entry.timer.unref();
  }
}

/** Ends a connection that ran out of time; a 408 first when no answer has started on it. */
function expire(socket: Socket, answer: boolean): void {
  if (socket.destroyed) return;
  if (answer && socket.writable) socket.write(REQUEST_TIMEOUT_ANSWER);
  socket.destroy();
}

/** Open connections per remote address, for the per-address cap. */
export class AddressCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts the socket in, or returns false when its address already holds `max` connections. */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? '';
    const open = this.counts.get(address) ?? 0;
    if (open >= this.max) return false;
    this.counts.set(address, open + 1);
    socket.once('close', () => {
      const left = (this.counts.get(address) ?? 1) - 1;
      if (left === 0) this.counts.delete(address);
      else this.counts.set(address, left);
    });
    return true;
  }
}

export const tooManyConnectionsAnswer = (max: number): string =>
  rawAnswer('503 Service Unavailable', `too many connections from this address (at most ${max})`);
