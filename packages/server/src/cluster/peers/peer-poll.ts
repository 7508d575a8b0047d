import { type ClusterServerAnswer, clusterServerAnswer } from '@sluice/api';
import { networkReason } from '../mirror-poller.js';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../proof.js';

/** The path every Sluice answers its peers on (proof of the cluster key, no admin login). */
export const PEER_SERVER_PATH = '/flussonic/api/cluster/server';
/** One poll may take this long at most (connect, answer, body) before the peer counts as down. */
export const PEER_POLL_TIMEOUT_MS = 2000;
/** A peer's answer bigger than this is refused unread (~200,000 streams' names). */
export const PEER_ANSWER_MAX_BYTES = 16 * 1024 * 1024;

export interface PeerTarget {
  host: string;
  port: number;
}

/** A URL's host part: an IPv6 address goes in brackets. */
export function peerOrigin(target: PeerTarget): string {
  const host = target.host.includes(':') && !target.host.startsWith('[') ? `[${target.host}]` : target.host;
  return `http://${host}:${target.port}`;
}

/**
 * Asks one peer for its figures (and its stream list when `streamsRev` is no longer current).
 * Resolves with the answer, or rejects with an Error whose message is what Overview shows.
 */
export async function pollPeer(
  target: PeerTarget,
  clusterKey: string | undefined,
  streamsRev: string | undefined,
  timeoutMs = PEER_POLL_TIMEOUT_MS,
): Promise<ClusterServerAnswer> {
  if (!clusterKey) throw new Error('no cluster_key set here: peers answer only a server that proves it');
  const query = streamsRev ? `?streams_rev=${encodeURIComponent(streamsRev)}` : '';
  return parsePeerAnswer(
    ...(await fetchBounded(target, `${PEER_SERVER_PATH}${query}`, clusterKey, timeoutMs)),
  );
}

/** GET `pathAndQuery` on the peer with a proof, the whole exchange bounded in time and size. */
export async function fetchBounded(
  target: PeerTarget,
  pathAndQuery: string,
  clusterKey: string,
  timeoutMs = PEER_POLL_TIMEOUT_MS,
): Promise<[number, string]> {
  const url = `${peerOrigin(target)}${pathAndQuery}`;
  const path = pathAndQuery.split('?')[0]!;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      headers: { [CLUSTER_PROOF_HEADER]: signClusterRequest(clusterKey, path) },
      signal,
      redirect: 'manual',
    });
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > PEER_ANSWER_MAX_BYTES) {
      await response.body?.cancel();
      throw new Error(`answer too big (${declared} bytes)`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (response.body)
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > PEER_ANSWER_MAX_BYTES)
          throw new Error(`answer too big (over ${PEER_ANSWER_MAX_BYTES} bytes)`);
        chunks.push(Buffer.from(chunk));
      }
    return [response.status, Buffer.concat(chunks).toString('utf8')];
  } catch (error) {
    if ((error as Error).message.startsWith('answer too big')) throw error;
    throw new Error(networkReason(error), { cause: error });
  }
}

/**
 * A peer's status and body as an answer, or an Error in an operator's words. Never throws
 * anything else, whatever the bytes (fuzzed: peer-poll.test.ts).
 */
export function parsePeerAnswer(status: number, text: string): ClusterServerAnswer {
  if (status === 401 || status === 403) {
    const why = errorText(text);
    throw new Error(why === 'wrong cluster key' || !why ? 'wrong cluster key' : `refused: ${why}`);
  }
  if (status === 404) throw new Error('not a Sluice server (no peer answer there)');
  if (status < 200 || status >= 300) {
    const why = errorText(text);
    throw new Error(`HTTP ${status}${why ? `: ${why}` : ''}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('the peer answered something that is not JSON');
  }
  const parsed = clusterServerAnswer.safeParse(body);
  if (!parsed.success) throw new Error('the peer answered unexpected figures');
  return parsed.data;
}

function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown } | null;
    return body && typeof body.error === 'string' ? body.error.slice(0, 200) : '';
  } catch {
    return '';
  }
}
