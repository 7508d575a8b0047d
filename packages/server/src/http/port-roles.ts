import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Which listener a request came in on: the public ports (http/https) or the admin ones. */
export type ListenerKind = 'public' | 'admin';

const API = '/flussonic/api';
/** Mirrors pull from the public ports with the cluster key; they are media distribution, not the API. */
const PUBLIC_API_PATHS = [`${API}/cluster/`];
/** API calls at the root: those spec 000 §7 puts there, and the Prometheus scrape. */
const ROOT_API_PATHS = ['/letsencrypt', '/metrics'];

/**
 * The admin ports split (spec 000 §2 Additional: admin_http / admin_https): admin ports serve only
 * the console and the API (login, events websocket), no playback; once any admin port is set the
 * public ports stop serving the console and the API (404) and keep serving playback.
 *
 * Plain connections are tagged by socket as they are accepted; requests that come through a TLS
 * server are tagged one by one (their socket is the TLS one, or HTTP/2's proxy of it).
 */
export class PortRoles {
  private readonly sockets = new WeakMap<Socket, ListenerKind>();
  private readonly requests = new WeakMap<IncomingMessage, ListenerKind>();
  private adminPortsSet = false;

  /** Set from the config: whether any admin_http / admin_https port is configured. */
  setAdminPorts(set: boolean): void {
    this.adminPortsSet = set;
  }

  tagSocket(socket: Socket, kind: ListenerKind): void {
    this.sockets.set(socket, kind);
  }

  tagRequest(req: IncomingMessage, kind: ListenerKind): void {
    this.requests.set(req, kind);
  }

  kindOf(req: IncomingMessage): ListenerKind {
    return this.requests.get(req) ?? this.sockets.get(req.socket) ?? 'public';
  }

  /** Playback (HLS, MPEG-TS, WHIP/WHEP …) is never served on an admin port. */
  servesPlayback(req: IncomingMessage): boolean {
    return this.kindOf(req) !== 'admin';
  }

  /** The console and the API: anywhere while no admin port is set, then only on admin ports. */
  servesConsole(req: IncomingMessage): boolean {
    if (!this.adminPortsSet || this.kindOf(req) === 'admin') return true;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const isConsoleOrApi =
      path === '/' ||
      path === '/admin' ||
      path.startsWith('/admin/') ||
      path.startsWith(`${API}/`) ||
      path.startsWith('/tv/api/') ||
      ROOT_API_PATHS.includes(path);
    return !isConsoleOrApi || PUBLIC_API_PATHS.some((p) => path.startsWith(p));
  }

  /** The early onRequest hook: a public port's console or API request is answered 404. */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (this.servesConsole(request.raw)) return undefined;
    return reply.status(404).send({ error: `no such path: ${request.url.split('?')[0]}` });
  };
}
