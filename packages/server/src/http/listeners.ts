import { createServer, type Server, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import {
  AddressCounts,
  CONNECTION_LIMITS,
  ConnectionTimeouts,
  type ConnectionLimits,
  tooManyConnectionsAnswer,
} from './connection-limits.js';

const PORT_REMOVAL_GRACE_MS = 1000;

/** Where an accepted connection goes: an HTTP server, or a TLS server that wraps it first. */
export type ConnectionSink = (socket: Socket) => void;

/** Hands plain connections to an HTTP server, with the header, body and idle deadlines it needs. */
export function httpSink(http: HttpServer, limits: ConnectionLimits = CONNECTION_LIMITS): ConnectionSink {
  const timeouts = new ConnectionTimeouts(http, limits);
  return (socket) => {
    timeouts.watch(socket);
    http.emit('connection', socket);
  };
}

export interface PortListenersOptions {
  /** Named in log lines: HTTP, HTTPS, admin HTTP … */
  label: string;
  /** A TLS port: a refused connection is just closed (a plain-text 503 means nothing to a TLS client). */
  tls?: boolean;
  /** The per-address count, shared by every listener so one address can't hold the cap on each port. */
  addresses?: AddressCounts;
  limits?: ConnectionLimits;
  onError: (port: number, error: Error) => void;
  log?: (line: string) => void;
}

/**
 * One TCP listener per configured port of one kind, all feeding the same server, so ports can be
 * added and removed while the server runs (a config change) without restarting the app. Upgrades
 * (websockets) work too, since the HTTP server sees each connection as its own. Each connection is
 * counted against its address's cap; the sink watches it for timeouts (connection-limits.ts, or
 * the TLS handshake timeout for TLS ports).
 */
export class PortListeners {
  private readonly servers = new Map<number, Server>();
  /** Open connections per port, so a port taken out of the config takes its connections with it. */
  private readonly sockets = new Map<number, Set<Socket>>();
  private readonly addresses: AddressCounts;
  private readonly limits: ConnectionLimits;
  private refusedSinceLog = 0;
  private lastRefusalLogMs = 0;

  constructor(
    private readonly sink: ConnectionSink,
    private readonly host: string,
    private readonly options: PortListenersOptions,
  ) {
    this.limits = options.limits ?? CONNECTION_LIMITS;
    this.addresses = options.addresses ?? new AddressCounts(this.limits.perAddress);
  }

  /** Opens the ports that are new and closes the ones no longer wanted; resolves with the ports open. */
  async reconcile(ports: readonly number[]): Promise<number[]> {
    const wanted = new Set(ports);
    for (const [port, server] of this.servers) {
      if (!wanted.has(port)) {
        server.close();
        // After a grace second: the answer to the very request that removed the port gets out first.
        const left = this.sockets.get(port);
        this.sockets.delete(port);
        setTimeout(() => left?.forEach((socket) => socket.destroy()), PORT_REMOVAL_GRACE_MS).unref();
        this.servers.delete(port);
      }
    }
    await Promise.all([...wanted].filter((p) => !this.servers.has(p)).map((p) => this.open(p)));
    return [...this.servers.keys()];
  }

  /** Ports actually bound (a requested 0 becomes the port the system chose). */
  bound(): number[] {
    return [...this.servers.values()].map((s) => {
      const address = s.address();
      return typeof address === 'object' && address ? address.port : 0;
    });
  }

  /** Stops listening and drops open connections (idle keep-alive ones would otherwise hold the close). */
  async close(): Promise<void> {
    const closed = Promise.all(
      [...this.servers.values()].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
    );
    for (const sockets of this.sockets.values()) sockets.forEach((socket) => socket.destroy());
    await closed;
    this.servers.clear();
  }

  private open(port: number): Promise<void> {
    return new Promise((resolve) => {
      const server = createServer({ noDelay: true }, (socket: Socket) => this.accept(socket, port));
      server.once('error', (error) => {
        this.options.onError(port, error);
        resolve();
      });
      server.listen({ port, host: this.host }, () => {
        this.servers.set(port, server);
        resolve();
      });
    });
  }

  private accept(socket: Socket, port: number): void {
    if (!this.addresses.admit(socket)) {
      this.refuse(socket);
      return;
    }
    let open = this.sockets.get(port);
    if (!open) this.sockets.set(port, (open = new Set()));
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    this.sink(socket);
  }

  /** Answers 503 and closes; logged at most once a minute, with how many were refused since. */
  private refuse(socket: Socket): void {
    socket.on('error', () => undefined);
    if (this.options.tls) socket.destroy();
    else socket.end(tooManyConnectionsAnswer(this.limits.perAddress));
    // A client that never reads nor closes must not keep even the refused connection.
    setTimeout(() => socket.destroy(), 1000).unref();
    this.refusedSinceLog++;
    const now = Date.now();
    if (now - this.lastRefusalLogMs < 60_000) return;
    this.options.log?.(
      `refused ${this.refusedSinceLog} ${this.options.label} connection(s): ${socket.remoteAddress} already holds ` +
        `${this.limits.perAddress}, the most one address may open`,
    );
    this.lastRefusalLogMs = now;
    this.refusedSinceLog = 0;
  }
}
