import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '@sluice/api';
import { isPlainObject } from '@sluice/api';
import { CLUSTER_PROOF_HEADER, CLUSTER_PROOF_QUERY } from '../proof.js';
import type { PeerDirectory, PeerState } from './peer-directory.js';
import { peerOrigin } from './peer-poll.js';

/**
 * The URLs a new viewer starts with: an HLS, fMP4 HLS or LL-HLS playlist, MPEG-TS, a DASH
 * manifest. Segments, keys and previews are never redirected: a viewer already watching here
 * stays here.
 */
const ENTRY = /^\/(.+)\/(?:index\.m3u8|index\.fmp4\.m3u8|index\.ll\.m3u8|index\.mpd|mpegts)$/;

/**
 * When this server's output is over its `total_bandwidth`, a new viewer of a stream is sent (302)
 * to the least-loaded peer that answers, lists that stream and is under its own total_bandwidth.
 * Requests from peers (they carry the cluster proof) are never redirected, nor when no peer fits:
 * then the viewer is served here. Answers true when it redirected.
 */
export function loadRedirect(
  directory: PeerDirectory,
  config: () => Config,
  snapshot: () => Record<string, unknown>,
) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const total = config().total_bandwidth;
    if (!total) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const match = ENTRY.exec(path);
    if (!match) return false;
    if (!overloaded(snapshot(), total)) return false;
    if (req.headers[CLUSTER_PROOF_HEADER] !== undefined) return false;
    if (q >= 0 && new URLSearchParams(url.slice(q + 1)).has(CLUSTER_PROOF_QUERY)) return false;
    let name: string;
    try {
      name = decodeURIComponent(match[1]!);
    } catch {
      return false;
    }
    const target = leastLoaded(directory.peers(), name);
    if (!target) return false;
    const port = target.figures?.ports.http ?? target.port;
    res.writeHead(302, {
      location: `${peerOrigin({ host: target.host, port })}${url}`,
      'cache-control': 'no-store',
      'content-length': 0,
    });
    res.end();
    return true;
  };
}

/** Output over total_bandwidth (bits/s); the view's output_kbit is refreshed each second. */
function overloaded(view: Record<string, unknown>, totalBits: number): boolean {
  const stats = view.stats;
  const kbit = isPlainObject(stats) && typeof stats.output_kbit === 'number' ? stats.output_kbit : 0;
  return kbit * 1000 > totalBits;
}

/** The answering peer with `name` that has the lowest bandwidth usage under 100 % (none set counts as 0). */
export function leastLoaded(peers: readonly PeerState[], name: string): PeerState | undefined {
  let best: PeerState | undefined;
  let bestUsage = Infinity;
  for (const peer of peers) {
    if (peer.self || !peer.reachable || !peer.figures) continue;
    const usage = peer.figures.bandwidth_usage ?? 0;
    if (usage >= 100 || usage >= bestUsage) continue;
    if (!peer.streamNames.has(name)) continue;
    best = peer;
    bestUsage = usage;
  }
  return best;
}
