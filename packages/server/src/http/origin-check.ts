import type { FastifyRequest } from 'fastify';

/** scheme://host[:port] of this request as its Host header names it; undefined without one. */
export function ownOrigin(request: FastifyRequest): string | undefined {
  const host = request.headers.host;
  if (!host) return undefined;
  try {
    return new URL(`${request.protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

function normalise(origin: string): string | undefined {
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why a browser request came from another page than this server's own, or undefined if it did not
 * (CSRF, issue 13: a page on another port of the same host changed the config). Browsers send
 * Origin on every POST and websocket upgrade; where they leave it out, Sec-Fetch-Site tells.
 * Clients that are not browsers (curl, scripts) send neither and pass: they hold the password.
 */
export function crossOriginReason(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const own = ownOrigin(request);
    if (own !== undefined && normalise(origin) === own) return undefined;
    return `a request from ${JSON.stringify(origin.slice(0, 200))} is refused: only pages of ${own ?? 'this server'} may make it`;
  }
  const site = request.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return undefined;
  return `a ${JSON.stringify(String(site).slice(0, 40))} request is refused: only this server's own pages may make it`;
}
