import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Config } from '@sluice/api';
import type { CertificateStore } from '../tls/certificate-store.js';
import {
  AddressCounts,
  CONNECTION_LIMITS,
  ConnectionTimeouts,
  type ConnectionLimits,
} from './connection-limits.js';
import { httpSink, PortListeners } from './listeners.js';
import type { ListenerKind, PortRoles } from './port-roles.js';

/** A TLS handshake not finished by then is dropped: idle or trickling handshakes can't pile up. */
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;
/** How often a port that could not be bound is tried again. */
const BIND_RETRY_MS = 5_000;
/** HTTP/2 streams one connection may have open at once (Node's default has no bound). */
const H2_MAX_STREAMS = 128;

type PortKey = 'http' | 'https' | 'admin_http' | 'admin_https';
const KINDS: Record<PortKey, { label: string; kind: ListenerKind; tls: boolean }> = {
  http: { label: 'HTTP', kind: 'public', tls: false },
  https: { label: 'HTTPS', kind: 'public', tls: true },
  admin_http: { label: 'admin HTTP', kind: 'admin', tls: false },
  admin_https: { label: 'admin HTTPS', kind: 'admin', tls: true },
};

export interface WebListenersOptions {
  /** The app's HTTP server (Fastify's): every request, whatever port it came in on, ends up here. */
  app: HttpServer;
  roles: PortRoles;
  certificates: CertificateStore;
  host: string;
  log: { notice(line: string): void; error(line: string): void; debug(line: string): void };
  limits?: ConnectionLimits;
}

/**
 * Every web port: `http`, `https`, `admin_http`, `admin_https`, reconciled live from the config.
 * Plain ports hand their connections to the app's HTTP server; TLS ports to an HTTP/2 secure server
 * (one per kind, HTTP/1.1 allowed: ALPN picks h2 when the client offers it, websockets upgrade over
 * HTTP/1.1) whose requests and upgrades are passed on to the app's server, so one Fastify app
 * answers them all. The certificate comes from the store and is swapped in place on change.
 * A port that can't be bound is a header notice until it binds or leaves the config.
 */
export class WebListeners {
  private readonly ports: Record<PortKey, PortListeners>;
  private readonly secure: Http2SecureServer[] = [];
  private readonly failures = new Map<string, string>();
  private readonly stopWatching: () => void;
  private config: Config | undefined;
  private retry: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: WebListenersOptions) {
    const limits = options.limits ?? CONNECTION_LIMITS;
    const addresses = new AddressCounts(limits.perAddress);
    const plain = httpSink(options.app, limits);
    const sinks: Record<ListenerKind, { plain: (s: Socket) => void; tls: (s: Socket) => void }> = {
      public: { plain, tls: this.tlsSink('public', limits) },
      admin: {
        plain: (socket) => {
          options.roles.tagSocket(socket, 'admin');
          plain(socket);
        },
        tls: this.tlsSink('admin', limits),
      },
    };
    const make = (key: PortKey) => {
      const { label, kind, tls } = KINDS[key];
      return new PortListeners(tls ? sinks[kind].tls : sinks[kind].plain, options.host, {
        label,
        tls,
        addresses,
        limits,
        onError: (port, error) => this.failed(key, port, error),
        log: (line) => options.log.notice(line),
      });
    };
    this.ports = {
      http: make('http'),
      https: make('https'),
      admin_http: make('admin_http'),
      admin_https: make('admin_https'),
    };
    this.stopWatching = options.certificates.onChange(() => {
      for (const server of this.secure) server.setSecureContext(this.tlsOptions());
    });
  }

  /** Opens and closes ports to match the config; resolves with what is open per kind. */
  reconcile(config: Config): Promise<Record<PortKey, number[]>> {
    // One at a time: two at once would both try to bind a new port.
    const run = this.queue.then(() => this.apply(config));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async apply(config: Config): Promise<Record<PortKey, number[]>> {
    this.options.roles.setAdminPorts(
      (config.admin_http?.length ?? 0) + (config.admin_https?.length ?? 0) > 0,
    );
    this.config = config;
    const keys = Object.keys(KINDS) as PortKey[];
    const open = await Promise.all(
      keys.map(async (key) => {
        const wanted = config[key] ?? [];
        const bound = await this.ports[key].reconcile(wanted);
        // A port's notice stays while it is wanted and still not bound (a retry that fails again
        // sets the same one), so the header does not flicker.
        for (const port of this.failedPorts(key))
          if (!wanted.includes(port) || bound.includes(port)) this.failures.delete(`${key}:${port}`);
        return [key, bound] as const;
      }),
    );
    clearTimeout(this.retry);
    // A port something else held may free up: tried again while any failed, without a config change.
    if (this.failures.size > 0) {
      this.retry = setTimeout(() => void this.reconcile(this.config ?? config), BIND_RETRY_MS);
      this.retry.unref();
    }
    return Object.fromEntries(open) as Record<PortKey, number[]>;
  }

  private failedPorts(key: PortKey): number[] {
    return [...this.failures.keys()]
      .filter((k) => k.startsWith(`${key}:`))
      .map((k) => Number(k.split(':')[1]));
  }

  /** Bound port numbers per kind (a requested 0 becomes the port the system chose). */
  bound(): Record<PortKey, number[]> {
    const keys = Object.keys(KINDS) as PortKey[];
    return Object.fromEntries(keys.map((k) => [k, this.ports[k].bound()])) as Record<PortKey, number[]>;
  }

  /** The HTTPS port of the kind a request came in on (https, or admin_https for an admin port), if open. */
  httpsPortFor(req: IncomingMessage): number | undefined {
    const kind = this.options.roles.kindOf(req);
    return this.ports[kind === 'admin' ? 'admin_https' : 'https'].bound()[0];
  }

  /** Header notices: one per port that could not be bound (stats `status` error_* keys). */
  notices(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, message] of this.failures) out[`error_listen_${key.replace(':', '_')}`] = message;
    return out;
  }

  async close(): Promise<void> {
    this.stopWatching();
    clearTimeout(this.retry);
    await Promise.all(Object.values(this.ports).map((p) => p.close()));
    for (const server of this.secure) server.close();
  }

  private failed(key: PortKey, port: number, error: Error): void {
    const message = `Can't listen on ${KINDS[key].label} port ${port}: ${error.message}`;
    // Logged once, not at every retry.
    if (this.failures.get(`${key}:${port}`) !== message) this.options.log.error(message);
    this.failures.set(`${key}:${port}`, message);
  }

  private tlsOptions() {
    return { ...this.options.certificates.pem(), minVersion: 'TLSv1.2' as const };
  }

  /** An HTTP/2 secure server for one listener kind; returns where its raw connections go. */
  private tlsSink(kind: ListenerKind, limits: ConnectionLimits): (socket: Socket) => void {
    const { app, roles, log } = this.options;
    const server = createSecureServer({
      ...this.tlsOptions(),
      allowHTTP1: true,
      handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS,
      settings: { maxConcurrentStreams: H2_MAX_STREAMS },
    });
    this.secure.push(server);
    // An idle HTTP/2 connection is closed like an idle HTTP/1.1 keep-alive one.
    server.on('session', (session) => session.setTimeout(limits.idleTimeoutMs, () => session.destroy()));
    // HTTP/1.1 over TLS gets the same header, body and idle deadlines as plain HTTP.
    const timeouts = new ConnectionTimeouts(server as unknown as HttpServer, limits);
    server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.alpnProtocol !== 'h2') timeouts.watch(socket);
    });
    server.on('request', (req: IncomingMessage, res) => {
      roles.tagRequest(req, kind);
      // HTTP/2 names the host in `:authority` only; the app (origin checks, URLs it builds) reads Host.
      const authority = req.headers[':authority'];
      if (req.headers.host === undefined && typeof authority === 'string') req.headers.host = authority;
      app.emit('request', req, res);
    });
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      roles.tagRequest(req, kind);
      app.emit('upgrade', req, socket, head);
    });
    // A failed or timed-out handshake ends that connection only; a line at debug level, since
    // scanners and browsers distrusting a self-signed certificate do it all the time.
    server.on('tlsClientError', (error: Error, socket: TLSSocket) => {
      log.debug(`TLS handshake from ${socket.remoteAddress ?? '?'} failed: ${error.message}`);
      socket.destroy();
    });
    server.on('sessionError', (error: Error) => log.debug(`HTTP/2 session error: ${error.message}`));
    return (socket) => {
      socket.on('error', () => undefined);
      server.emit('connection', socket);
    };
  }
}
