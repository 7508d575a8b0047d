import type { FastifyRequest } from 'fastify';
import type { ClusterStream, ClusterStreamsAnswer, Config } from '@sluice/api';
import { isPlainObject } from '@sluice/api';
import { HttpError } from '../http/errors.js';
import { NonceMemory, verifyClusterRequest } from './proof.js';

/**
 * The origin side of mirroring: `GET /flussonic/api/cluster/streams` lists this server's own
 * streams (configured and published; not those it mirrors itself, so two servers mirroring each
 * other do not loop) to a peer that proves the cluster key (cluster/proof.ts). No admin
 * credentials: the key is the credential, and without a `cluster_key` here nobody is answered.
 */
export function originHandlers(config: () => Config, snapshot: () => Record<string, unknown>) {
  const seen = new NonceMemory();
  return {
    streams: async (request: FastifyRequest): Promise<ClusterStreamsAnswer> => {
      const verdict = verifyClusterRequest(
        { url: request.raw.url ?? request.url, headers: request.headers },
        config().cluster_key,
        Date.now(),
        seen,
      );
      if (!verdict.ok) throw new HttpError(403, verdict.reason);
      return { streams: ownStreams(config(), snapshot()) };
    },
  };
}

function ownStreams(config: Config, view: Record<string, unknown>): ClusterStream[] {
  const out: ClusterStream[] = [];
  const alive = (item: unknown) =>
    isPlainObject(item) && isPlainObject(item.stats) && item.stats.alive === true;
  const viewStreams = isPlainObject(view.streams) ? view.streams : {};
  for (const [name, stream] of Object.entries(config.streams ?? {})) {
    if (stream.disabled) continue;
    out.push({ name, static: stream.static === true, alive: alive(viewStreams[name]) });
  }
  const lives = isPlainObject(view.lives) ? view.lives : {};
  for (const location of Object.values(lives)) {
    if (!isPlainObject(location) || !isPlainObject(location.streams)) continue;
    for (const [name, item] of Object.entries(location.streams))
      out.push({ name, static: true, alive: alive(item) });
  }
  return out;
}
