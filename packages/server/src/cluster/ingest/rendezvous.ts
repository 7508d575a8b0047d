import { createHash } from 'node:crypto';

/**
 * Rendezvous (highest-random-weight) hashing: each server's weight for a stream is a hash of both
 * names, and the heaviest wins. Every server that sees the same set of servers picks the same one
 * without talking; a server leaving moves only its own streams, each to its next in line.
 */
export function weightOf(server: string, stream: string): bigint {
  return createHash('sha256').update(`${server}\n${stream}`).digest().readBigUInt64BE(0);
}

/** `servers` heaviest first for `stream` (ties, which sha-256 makes unlikely, by name). */
export function rendezvousOrder(stream: string, servers: readonly string[]): string[] {
  const weighed = servers.map((server) => ({ server, weight: weightOf(server, stream) }));
  weighed.sort((a, b) =>
    a.weight === b.weight ? a.server.localeCompare(b.server) : a.weight > b.weight ? -1 : 1,
  );
  return weighed.map((w) => w.server);
}

/** One server that may capture a stream, as this server sees it now. */
export interface Candidate {
  id: string;
  /** Its output is over its `total_bandwidth`: it takes no new capture. */
  overBandwidth: boolean;
  /** It lost this stream's source lately: it is passed over while another can take it. */
  failing: boolean;
  /** It says it captures this stream now. */
  capturing: boolean;
}

/**
 * Who captures `stream` among the live `candidates` (this server included):
 * - a server already capturing it and not failing keeps it (a server joining or coming back does
 *   not move streams; two capturing after a partition heals leave it to the heavier one);
 * - else the heaviest that is neither failing nor over its bandwidth;
 * - else the heaviest not failing (all are loaded: one of them still captures);
 * - else the heaviest (every one has failed lately: trying again beats giving up).
 */
export function chooseCapturer(stream: string, candidates: readonly Candidate[]): string | undefined {
  const order = rendezvousOrder(
    stream,
    candidates.map((c) => c.id),
  );
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const first = (accept: (c: Candidate) => boolean) => order.find((id) => accept(byId.get(id)!));
  return (
    first((c) => c.capturing && !c.failing) ??
    first((c) => !c.failing && !c.overBandwidth) ??
    first((c) => !c.failing) ??
    order[0]
  );
}
