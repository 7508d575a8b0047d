import { z } from 'zod';
import type { Config } from '@sluice/api';

/**
 * What one server tells its peers about cluster ingest (GET INGEST_STATE_PATH, proved with the
 * cluster key like the mirrors' list call): who it is, which ingest streams it captures, which it
 * lost the source of lately, and whether it is over its `total_bandwidth`.
 */
export const INGEST_STATE_PATH = '/flussonic/api/cluster/ingest';

/** A peer's answer is read up to this many bytes (20,000 stream names of 50 characters fit). */
export const INGEST_STATE_MAX_BYTES = 4 * 1024 * 1024;

const names = z.array(z.string().min(1).max(1024)).max(100_000);
export const ingestState = z.object({
  /** The server's name in the cluster: its `hostname` and first HTTP port (ingestIdOf). */
  id: z.string().min(1).max(300),
  /** The streams it has marked `cluster_ingest`: only those servers are candidates for one. */
  ingest: names,
  capturing: names,
  failing: names,
  over_bandwidth: z.boolean(),
});
export type IngestState = z.infer<typeof ingestState>;

/**
 * This server's name in the cluster: `hostname` (or the machine's) with the first HTTP port,
 * unless the hostname already names a port. Self-reported, so it only has to differ per server.
 */
export function ingestIdOf(config: Config, machineHostname: string): string {
  const host = config.hostname ?? machineHostname;
  if (host.includes(':')) return host;
  const port = config.http?.[0];
  return port === undefined ? host : `${host}:${port}`;
}

/** The base URL a `peer` line names: `peer HOST:PORT;` (quoted, or split into name and port) or `peer HOST;` (port 80). */
export function peerBaseUrl(name: string, port: number | undefined): string {
  const hostPort = /:\d+$/.test(name) ? name : `${name}:${port ?? 80}`;
  return /^https?:\/\//.test(hostPort) ? hostPort : `http://${hostPort}`;
}
