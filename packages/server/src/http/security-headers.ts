import type { FastifyInstance } from 'fastify';

/**
 * Headers on every answer Fastify gives (the console under /admin, the API, its errors): the
 * console may not be framed by another site (clickjacking: a hidden console under a decoy page),
 * no answer is sniffed into another type, and console URLs don't leak to other sites as Referer.
 *
 * Playback answers (playlists, segments, MPEG-TS, /{name}/embed.html) never reach Fastify
 * (app.ts serves them first), so the embed page stays embeddable in other sites' iframes, which
 * is what it is for.
 *
 * No script-src: the console loads hls.js, blob: workers and websockets, and a policy that
 * broke one of them would show only in a browser.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.headers(SECURITY_HEADERS);
    return payload;
  });
}
