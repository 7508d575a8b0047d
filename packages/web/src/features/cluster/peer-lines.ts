import type { Peer } from '@sluice/api';

/** Spec 002 §9: peer edits are saved 1000 ms after the last one. */
export const PEER_EDIT_DEBOUNCE_MS = 1000;

/** One line of the peer list as typed: 'host:port', the port optional (spec 002 §5). */
export interface PeerRow {
  id: number;
  text: string;
}

export type Peers = Record<string, Peer>;

/** 'host:port' → host and port; the port is parsed as an integer and may be missing. */
export function parsePeerLine(text: string): { host: string; port?: number } {
  const line = text.trim();
  const colon = line.lastIndexOf(':');
  if (colon < 0) return { host: line };
  const host = line.slice(0, colon).trim();
  const port = Number.parseInt(line.slice(colon + 1), 10);
  return Number.isInteger(port) && port >= 0 ? { host, port } : { host };
}

/** A line with no host names no peer: it is the blank row, or removed on blur. */
export const isBlankPeer = (row: PeerRow) => parsePeerLine(row.text).host === '';

export const formatPeer = (peer: Peer, host: string): string =>
  peer.port === undefined ? host : `${host}:${peer.port}`;

/** The config's peers as 'host:port' texts, in their list order. */
export const peerTexts = (peers: Peers | null | undefined): string[] =>
  Object.entries(peers ?? {})
    .sort(([, a], [, b]) => (a.position ?? Infinity) - (b.position ?? Infinity))
    .map(([host, peer]) => formatPeer(peer, host));

/** The config's peers as lines, in their list order. */
export const peersToRows = (peers: Peers | null | undefined, nextId: () => number): PeerRow[] =>
  peerTexts(peers).map((text) => ({ id: nextId(), text }));

/**
 * The lines as the config's peers (spec 002 §3: name → {name, port, position}, positions from 0 as
 * the config file numbers them); null when none is left, which deletes the section. A host named
 * twice keeps its first line's place.
 */
export function rowsToPeers(rows: readonly PeerRow[]): Peers | null {
  const peers: Peers = {};
  for (const row of rows) {
    const { host, port } = parsePeerLine(row.text);
    if (host === '' || host in peers) continue;
    peers[host] = {
      name: host,
      ...(port === undefined ? {} : { port }),
      position: Object.keys(peers).length,
    };
  }
  return Object.keys(peers).length === 0 ? null : peers;
}
