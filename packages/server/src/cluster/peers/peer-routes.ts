import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClusterServerAnswer, Config } from '@sluice/api';
import { HttpError } from '../../http/errors.js';
import type { OnRequestHook } from '../../http/guard.js';
import { NonceMemory, verifyClusterRequest } from '../proof.js';
import { clusterServers, ingestStreams, mirrorSources, serverStreams } from './cluster-servers.js';
import type { PeerDirectory } from './peer-directory.js';
import { PEER_SERVER_PATH } from './peer-poll.js';

export interface PeerRoutesDeps {
  directory: PeerDirectory;
  config: () => Config;
  snapshot: () => Record<string, unknown>;
  /** Admin credentials, view access (the answers hold no secret). */
  view: OnRequestHook;
}

/**
 * GET /flussonic/api/cluster/server: what this server tells its peers (a proof of the cluster key,
 * no admin login; docs/api.md, Cluster peers). GET /flussonic/api/cluster_servers and its
 * `?ingest=true`, `?server=NAME`, `?sources=true` forms (spec 002 §7): the console's, from the peer view.
 */
export function registerPeerRoutes(app: FastifyInstance, deps: PeerRoutesDeps): void {
  const seen = new NonceMemory();
  const { directory } = deps;
  app.get(PEER_SERVER_PATH, async (request): Promise<unknown> => {
    const verdict = verifyClusterRequest(
      { url: request.raw.url ?? request.url, headers: request.headers },
      deps.config().cluster_key,
      Date.now(),
      seen,
    );
    if (!verdict.ok) throw new HttpError(403, verdict.reason);
    const query = request.query as Record<string, unknown>;
    if (query.detail === 'true') return { streams: directory.local.detail() };
    const { rev, list } = directory.local.streamList();
    const answer: ClusterServerAnswer = { server: await directory.local.figures(), streams_rev: rev };
    // The list goes only when it changed since the asker's last copy (20,000 names are ~0.5 MB).
    if (query.streams_rev !== rev) answer.streams = list;
    return answer;
  });
  app.get('/flussonic/api/cluster_servers', { onRequest: deps.view }, async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    if (query.ingest === 'true') return ingestStreams(directory, deps.config());
    if (query.sources === 'true') return mirrorSources(deps.config(), deps.snapshot());
    if (typeof query.server === 'string') {
      return serverStreams(directory, deps.config(), query.server);
    }
    return clusterServers(directory, deps.config(), deps.snapshot());
  });
}
