import { createHash, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pickEncoding } from '../http/accept-encoding.js';
import type { OnRequestHook } from '../http/guard.js';
import { metricsBody, PROMETHEUS_TEXT } from './metrics-text.js';
import type { SystemSampler } from './system-samplers.js';

export interface MetricsRouteDeps {
  /** The console's view guard: a view or edit login (basic auth or session) may scrape. */
  view: OnRequestHook;
  /** `metrics_token` from the config: a scraper sends it as `Authorization: Bearer TOKEN`. */
  token: () => string | undefined;
  snapshot: () => Record<string, unknown>;
  system: SystemSampler | undefined;
}

/** A sample this old is taken again by the scrape (Pulse's collection takes one each second). */
const SYSTEM_MAX_AGE_MS = 2000;

const gzipAsync = promisify(gzip);

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries the configured scrape token (compared in constant time). */
function hasToken(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  if (!token || !header || !/^Bearer /i.test(header)) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/**
 * GET /metrics: the Prometheus text exposition (docs/pulse.md lists the metrics). A Prometheus
 * server can't log in to the console: it sends the config's `metrics_token`, which grants this
 * route and nothing else; without it the console's own credentials are asked for.
 */
export function registerMetrics(app: FastifyInstance, deps: MetricsRouteDeps): void {
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (hasToken(request, deps.token())) return;
    return deps.view(request, reply);
  };
  app.get('/metrics', { onRequest: guard }, async (request, reply) => {
    const system = await deps.system?.fresh(SYSTEM_MAX_AGE_MS).catch(() => undefined);
    const body = metricsBody({ view: deps.snapshot(), system });
    reply
      .header('content-type', PROMETHEUS_TEXT)
      .header('cache-control', 'no-store')
      .header('vary', 'accept-encoding');
    // Prometheus asks for gzip: 20,000 streams are ~5 MB of text, ~15 times less compressed. Level 1
    // in the thread pool: the event loop doesn't wait for it, and more effort saves little here.
    if (pickEncoding(request.headers['accept-encoding'], ['gzip']) !== 'gzip') return reply.send(body);
    return reply.header('content-encoding', 'gzip').send(await gzipAsync(body, { level: 1 }));
  });
}
