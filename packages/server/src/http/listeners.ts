import { createServer, type Server, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import {
  AddressCounts,
  CONNECTION_LIMITS,
  ConnectionTimeouts,
  type ConnectionLimits,
  tooManyConnectionsAnswer,
} from './connection-limits.js';

/**
 * One TCP listener per configured HTTP port, all feeding the same HTTP server, so ports can be added
 * and removed while the server runs (a config change) without restarting the app. Upgrades
 * (websockets) work too, since the HTTP server sees each connection as its own. Each connection is
 * counted against its address's cap and watched for timeouts (connection-limits.ts).
 */
export class PortListeners {
  private readonly servers = new Map<number, Server>();
  private readonly sockets = new Set<Socket>();
  private readonly timeouts: ConnectionTimeouts;
  private readonly addresses: AddressCounts;
  private refusedSinceLog = 0;
  private lastRefusalLogMs = 0;

  constructor(
    private readonly http: HttpServer,
    private readonly host: string,
    private readonly onError: (port: number, error: Error) => void,
    private readonly log: (line: string) => void = () => undefined,
    private readonly limits: ConnectionLimits = CONNECTION_LIMITS,
  ) {
    this.timeouts = new ConnectionTimeouts(http, limits);
    this.addresses = new AddressCounts(limits.perAddress);
  }

  /** Opens the ports that are new and closes the ones no longer wanted; resolves with the ports open. */
  async reconcile(ports: readonly number[]): Promise<number[]> {
    const wanted = new Set(ports);
    for (const [port, server] of this.servers) {
      if (!wanted.has(port)) {
        server.close();
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
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.servers.clear();
  }

  private open(port: number): Promise<void> {
    return new Promise((resolve) => {
      const server = createServer({ noDelay: true }, (socket: Socket) => this.accept(socket));
      server.once('error', (error) => {
        this.onError(port, error);
        resolve();
      });
      server.listen({ port, host: this.host }, () => {
        this.servers.set(port, server);
        resolve();
      });
    });
  }

  private accept(socket: Socket): void {
    if (!this.addresses.admit(socket)) {
      this.refuse(socket);
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    this.timeouts.watch(socket);
    this.http.emit('connection', socket);
  }

  /** Answers 503 and closes; logged at most once a minute, with how many were refused since. */
  private refuse(socket: Socket): void {
    socket.on('error', () => undefined);
    socket.end(tooManyConnectionsAnswer(this.limits.perAddress));
    // A client that never reads nor closes must not keep even the refused connection.
    setTimeout(() => socket.destroy(), 1000).unref();
    this.refusedSinceLog++;
    const now = Date.now();
    if (now - this.lastRefusalLogMs < 60_000) return;
    this.log(
      `refused ${this.refusedSinceLog} HTTP connection(s): ${socket.remoteAddress} already holds ` +
        `${this.limits.perAddress}, the most one address may open`,
    );
    this.lastRefusalLogMs = now;
    this.refusedSinceLog = 0;
  }
}
