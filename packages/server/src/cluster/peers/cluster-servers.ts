import {
  type ClusterIngestAnswer,
  type ClusterPeerStream,
  type ClusterServer,
  type ClusterServers,
  type ClusterSource,
  type ClusterSourcesAnswer,
  type Config,
  isPlainObject,
  type PeerStreamsAnswer,
  clusterServerStreamsAnswer,
} from '@sluice/api';
import { HttpError } from '../../http/errors.js';
import { mirrorBase } from '../mirror-plan.js';
import type { PeerDirectory, PeerState } from './peer-directory.js';
import { fetchBounded, PEER_SERVER_PATH } from './peer-poll.js';

/**
 * The answers of GET /flussonic/api/cluster_servers and its forms (spec 002 §7), all from the peer
 * view: this server itself, each configured peer (a `peer` line naming this server is shown once,
 * as this server), and each origin a mirror reads from.
 */
export async function clusterServers(
  directory: PeerDirectory,
  config: Config,
  snapshot: Record<string, unknown>,
  nowMs = Date.now(),
): Promise<ClusterServers> {
  const local = directory.local;
  const sourceHosts = mirrorHosts(config, snapshot);
  const self = local.hostname();
  const out: ClusterServers = {};
  const { hostname: _h, instance: _i, ...figures } = await local.figures(nowMs);
  out[self] = {
    name: self,
    persistent: true,
    is_peer: false,
    is_source: sourceHosts.has(self),
    ...figures,
    fetch_delay: 0,
    error: null,
    self: true,
  };
  for (const peer of directory.peers()) {
    if (peer.self) continue;
    out[peer.name] = peerEntry(peer, sourceHosts.has(peer.host), nowMs);
  }
  for (const [host, error] of sourceHosts)
    if (!(host in out) && ![...directory.peers()].some((p) => p.host === host))
      out[host] = { name: host, persistent: false, is_peer: false, is_source: true, ports: {}, error };
  return out;
}

function peerEntry(peer: PeerState, isSource: boolean, nowMs: number): ClusterServer {
  const f = peer.figures;
  const entry: ClusterServer = {
    name: peer.name,
    persistent: true,
    is_peer: true,
    is_source: isSource,
    ports: f?.ports ?? { http: peer.port },
    error: peer.error,
  };
  if (f) {
    const { hostname: _h, instance: _i, ports: _p, ...figures } = f;
    Object.assign(entry, figures);
  }
  if (peer.fetchedAtMs !== undefined) {
    entry.fetch_delay = nowMs - peer.fetchedAtMs;
  }
  // How long the last poll took (Sluice's own field beside the spec's).
  if (peer.pollMs !== undefined) entry.poll_ms = peer.pollMs;
  return entry;
}

/**
 * `?ingest=true`: streams marked for cluster ingest, and the servers capturing each. A stream marked
 * in this server's config that nobody captures (its source down everywhere, or on demand and
 * unwatched) is a row with no server, not missing.
 */
export function ingestStreams(directory: PeerDirectory, config?: Config): ClusterIngestAnswer {
  const rows = new Map<string, string[]>();
  for (const [name, stream] of Object.entries(config?.streams ?? {})) {
    if (stream.cluster_ingest) rows.set(name, []);
  }
  const add = (server: string, streams: readonly ClusterPeerStream[]) => {
    for (const s of streams) {
      if (!s.ingest) continue;
      const at = rows.get(s.name) ?? [];
      if (s.alive) at.push(server);
      rows.set(s.name, at);
    }
  };
  add(directory.local.hostname(), directory.local.streamList().list);
  for (const peer of directory.peers()) if (!peer.self) add(peer.name, peer.streams);
  return {
    streams: [...rows]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, running_at]) => ({ name, running_at })),
  };
}

/** `?server=NAME`: that server's streams with stats, asked of the peer now (bounded), or this server's own. */
export async function serverStreams(
  directory: PeerDirectory,
  config: Config,
  name: string,
): Promise<PeerStreamsAnswer> {
  if (name === directory.local.hostname()) return { streams: directory.local.detail() };
  const peer = directory.peer(name);
  if (!peer) throw new HttpError(404, `no such server: ${name}`);
  if (peer.self) return { streams: directory.local.detail() };
  if (!config.cluster_key) throw new HttpError(502, 'no cluster_key set here');
  const [status, text] = await fetchBounded(
    peer,
    `${PEER_SERVER_PATH}?detail=true`,
    config.cluster_key,
  ).catch((error: Error) => {
    throw new HttpError(502, `${name}: ${error.message}`);
  });
  if (status !== 200) throw new HttpError(502, `${name} answered HTTP ${status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(502, `${name} answered something that is not JSON`);
  }
  const parsed = clusterServerStreamsAnswer.safeParse(body);
  if (!parsed.success) throw new HttpError(502, `${name} answered unexpected streams`);
  return parsed.data;
}

/** `?sources=true`: every origin url of every mirror (config `sources`). */
export function mirrorSources(config: Config, snapshot: Record<string, unknown>): ClusterSourcesAnswer {
  const sources: ClusterSource[] = [];
  for (const [position, mirror] of Object.entries(config.sources ?? {})) {
    const streams = viewMirror(snapshot, position)?.streams;
    const streamCount = isPlainObject(streams) ? Object.keys(streams).length : 0;
    for (const url of mirror.urls ?? []) {
      let base: URL;
      try {
        base = mirrorBase(url);
      } catch {
        continue;
      }
      const proto = base.protocol.replace(':', '');
      sources.push({
        proto,
        name: base.hostname,
        port: Number(base.port) || (proto === 'https' ? 443 : 80),
        prefix: base.pathname.replace(/^\/+|\/+$/g, ''),
        stream_count: streamCount,
        only: mirror.only ?? [],
        except: mirror.except ?? [],
      });
    }
  }
  return { sources };
}

/** Hosts of mirror urls → the error their mirror's last poll of them gave (null: it answered). */
function mirrorHosts(config: Config, snapshot: Record<string, unknown>): Map<string, string | null> {
  const hosts = new Map<string, string | null>();
  for (const [position, mirror] of Object.entries(config.sources ?? {})) {
    const servers = viewMirror(snapshot, position)?.stats;
    const polled = isPlainObject(servers) && Array.isArray(servers.servers) ? servers.servers : [];
    for (const url of mirror.urls ?? []) {
      try {
        const host = mirrorBase(url).hostname;
        const state = polled.find((s) => isPlainObject(s) && s.name === url) as
          { error?: unknown } | undefined;
        hosts.set(host, typeof state?.error === 'string' ? state.error : null);
      } catch {
        // Not a url: the mirror's own page says so.
      }
    }
  }
  return hosts;
}

function viewMirror(snapshot: Record<string, unknown>, position: string) {
  const sources = snapshot.sources;
  const mirror = isPlainObject(sources) ? sources[position] : undefined;
  return isPlainObject(mirror) ? mirror : undefined;
}
