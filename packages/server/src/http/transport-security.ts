import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import type { Config } from '@sluice/api';

/**
 * Whether a request came over TLS (an `https` or `admin_https` port). Under HTTP/2 the request's
 * socket is a proxy of the session's TLS socket, which answers `encrypted` the same way.
 */
export const cameOverTls = (req: IncomingMessage | { socket: unknown }): boolean =>
  (req.socket as Partial<TLSSocket> | null)?.encrypted === true;

/**
 * Paths the plain-HTTP redirect moves to HTTPS: the console and its API. Playback never reaches
 * Fastify (app.ts), and the paths below that do are kept on plain HTTP on purpose: a mirror's poll
 * of its origin (a server, which need not follow redirects), the WebRTC publish socket and the
 * embed page's hls.js (players and publishers keep working on the URLs they were given).
 */
const REDIRECTED = /^\/(?:$|admin(?:[/?]|$)|flussonic\/api\/)/;
const KEPT = /^\/flussonic\/api\/cluster\//;

/** A Host header's name without its port; undefined for anything that is not a plain host name or address. */
export function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const bracketed = /^(\[[0-9a-fA-F:.]+\])(?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1];
  const plain = /^([A-Za-z0-9.-]+)(?::\d+)?$/.exec(host);
  return plain?.[1];
}

/** Where a plain-HTTP request should go instead, or undefined when it stays. */
export function httpsRedirectTarget(
  config: Config,
  httpsPort: number | undefined,
  request: { url: string; headers: { host?: string }; socket: unknown },
): string | undefined {
  if (config.https_redirect !== true || httpsPort === undefined || cameOverTls(request)) return undefined;
  if (!REDIRECTED.test(request.url) || KEPT.test(request.url)) return undefined;
  const host = hostName(request.headers.host);
  if (!host) return undefined;
  return `https://${host}${httpsPort === 443 ? '' : `:${httpsPort}`}${request.url}`;
}

/**
 * Secure by default on TLS: HSTS on answers over TLS when `hsts_max_age_seconds` is set (never over
 * plain HTTP, where browsers ignore it and an attacker could forge it anyway), and the console and
 * API redirected to HTTPS when `https_redirect` is on and an HTTPS port is open. 308 keeps the
 * method and body, so a login form posted to the old URL still arrives.
 */
export function addTransportSecurity(
  app: FastifyInstance,
  config: () => Config,
  httpsPort: (req: IncomingMessage) => number | undefined,
): void {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw as IncomingMessage & { url: string };
    const target = httpsRedirectTarget(config(), httpsPort(raw), raw);
    if (target) return reply.redirect(target, 308);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const maxAge = config().hsts_max_age_seconds;
    if (maxAge !== undefined && cameOverTls(request.raw)) {
      void reply.header('strict-transport-security', `max-age=${maxAge}`);
    }
    return payload;
  });
}
