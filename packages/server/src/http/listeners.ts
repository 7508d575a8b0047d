import { createServer, type Server, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';

/**
 * One TCP listener per configured HTTP port, all feeding the same HTTP server, so ports can be added
 * and removed while the server runs (a config change) without restarting the app. Upgrades
 * (websockets) work too, since the HTTP server sees each connection as its own.
 */
export class PortListeners {
  private readonly servers = new Map<number, Server>();
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly http: HttpServer,
    private readonly host: string,
    private readonly onError: (port: number, error: Error) => void,
  ) {}

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
      const server = createServer({ noDelay: true }, (socket: Socket) => {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        this.http.emit('connection', socket);
      });
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
}
