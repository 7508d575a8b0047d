import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Proof that a request comes from a peer holding the cluster key (global `cluster_key`, or a
 * mirror's own). The key never travels: the peer sends `<time ms>.<nonce>.<signature>`, the
 * signature being HMAC-SHA256(key, "<time ms>\n<nonce>\n<path>"), where path is the request's
 * path without its query. The origin recomputes it and accepts it within CLUSTER_PROOF_WINDOW_MS of
 * its own clock, once per nonce: a proof copied off the wire is worth one request to one path for
 * that long, and nothing after.
 *
 * Carried in the `x-sluice-cluster` header (mirrors' list polls and MPEG-TS pulls send it so), or in
 * the query parameter `cluster` for clients that can only set a URL.
 */
export const CLUSTER_PROOF_HEADER = 'x-sluice-cluster';
export const CLUSTER_PROOF_QUERY = 'cluster';
/** How far a proof's time may be from the origin's clock, either way. */
export const CLUSTER_PROOF_WINDOW_MS = 30_000;

export function signClusterRequest(key: string, path: string, nowMs = Date.now(), nonce?: string): string {
  const n = nonce ?? randomBytes(12).toString('hex');
  return `${nowMs}.${n}.${signature(key, nowMs, n, path)}`;
}

/** The request parts a proof is checked against: its URL (path and query) and headers. */
export interface ClusterRequest {
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export type ClusterVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks a request's cluster proof against `clusterKey`. Refuses when this server has no key,
 * when the proof is missing or malformed, outside the time window, signed with another key or for
 * another path, or already used (when `seen` is given; the origin's list call passes its memory).
 */
export function verifyClusterRequest(
  request: ClusterRequest,
  clusterKey: string | undefined,
  nowMs = Date.now(),
  seen?: NonceMemory,
): ClusterVerdict {
  if (!clusterKey) return { ok: false, reason: 'this server has no cluster_key' };
  const q = request.url.indexOf('?');
  const path = q < 0 ? request.url : request.url.slice(0, q);
  const header = request.headers[CLUSTER_PROOF_HEADER];
  const proof =
    (Array.isArray(header) ? header[0] : header) ??
    new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1)).get(CLUSTER_PROOF_QUERY) ??
    undefined;
  if (!proof) return { ok: false, reason: 'cluster key proof required' };
  const match = /^(\d{1,15})\.([0-9a-f]{8,64})\.([0-9a-f]{64})$/.exec(proof);
  if (!match) return { ok: false, reason: 'malformed cluster key proof' };
  const timeMs = Number(match[1]);
  const nonce = match[2]!;
  if (Math.abs(nowMs - timeMs) > CLUSTER_PROOF_WINDOW_MS)
    return { ok: false, reason: 'cluster key proof expired (check the clocks of both servers)' };
  const expected = Buffer.from(signature(clusterKey, timeMs, nonce, path), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(match[3]!, 'hex')))
    return { ok: false, reason: 'wrong cluster key' };
  if (seen && !seen.remember(nonce, timeMs + CLUSTER_PROOF_WINDOW_MS, nowMs))
    return { ok: false, reason: 'cluster key proof already used' };
  return { ok: true };
}

/** Nonces of accepted proofs, each until its proof's window has passed (replays inside the window refused). */
export class NonceMemory {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly limit = 100_000) {}

  /** False when `nonce` was seen and is still in its window. */
  remember(nonce: string, expiresAtMs: number, nowMs: number): boolean {
    const known = this.expiries.get(nonce);
    if (known !== undefined && known >= nowMs) return false;
    if (this.expiries.size >= this.limit) this.prune(nowMs);
    this.expiries.set(nonce, expiresAtMs);
    return true;
  }

  private prune(nowMs: number): void {
    for (const [nonce, expiry] of this.expiries) if (expiry < nowMs) this.expiries.delete(nonce);
    // Still full of live nonces (a flood): drop the oldest half rather than grow without bound.
    if (this.expiries.size >= this.limit) {
      let drop = this.expiries.size / 2;
      for (const nonce of this.expiries.keys()) {
        if (drop-- <= 0) break;
        this.expiries.delete(nonce);
      }
    }
  }
}

function signature(key: string, timeMs: number, nonce: string, path: string): string {
  return createHmac('sha256', key).update(`${timeMs}\n${nonce}\n${path}`).digest('hex');
}
