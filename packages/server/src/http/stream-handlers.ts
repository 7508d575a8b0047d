import type { FastifyRequest } from 'fastify';
import type { MediaInfo } from '@sluice/api';
import type { Engine } from '../engine/engine.js';
import { HttpError } from './errors.js';

/** The stream calls of spec 000 §7: restart, switch source, media info. Names may hold '/'. */
export function streamHandlers(engine: Engine, closeSessions: (ids: readonly string[]) => number) {
  const runtimeOf = (request: FastifyRequest) => {
    const name = (request.params as Record<string, string>)['*'] ?? '';
    const runtime = engine.get(name);
    if (!runtime) throw new HttpError(404, `no stream named ${name}`);
    return runtime;
  };
  return {
    restart: async (request: FastifyRequest) => {
      const runtime = runtimeOf(request);
      if (!engine.restart(runtime.name)) throw new HttpError(409, `stream ${runtime.name} is disabled`);
      return { ok: true };
    },
    switchSource: async (request: FastifyRequest) => {
      const runtime = runtimeOf(request);
      const url = (request.query as Record<string, unknown>).url;
      if (typeof url !== 'string' || !url)
        throw new HttpError(400, 'the query must carry url=<one of the stream urls>');
      if (!runtime.running) throw new HttpError(409, `stream ${runtime.name} is not running`);
      if (!runtime.switchSource(url)) throw new HttpError(400, `stream ${runtime.name} has no source ${url}`);
      return { ok: true };
    },
    /** close_sessions: the body is session ids, one a line (spec 000 §7). */
    closeSessions: async (request: FastifyRequest) => {
      if (typeof request.body !== 'string') {
        throw new HttpError(400, 'the body must be session ids, one a line (text/plain)');
      }
      const ids = request.body.split(/\s+/).filter(Boolean);
      return { ok: true, closed: closeSessions(ids) };
    },
    /** What the stream carries now; no tracks while it is not running or has no media yet. */
    mediaInfo: async (request: FastifyRequest): Promise<MediaInfo> => {
      const runtime = runtimeOf(request);
      return engine.mediaInfo(runtime.name) ?? { tracks: [] };
    },
  };
}
