import { z } from 'zod';

/**
 * GET /flussonic/api/cluster_servers and its forms (spec 002 §3 cluster entities, §7 calls). The
 * server (cluster/peers/) answers from its last poll of each peer; the console's cluster pages read
 * them. Figures a server has not answered yet are absent, never made up.
 */

/** One server of the cluster: this one, each configured peer, and each origin a mirror reads from. */
export const clusterServer = z.looseObject({
  /** host name as the peer list names it (this server: its hostname). */
  name: z.string(),
  /** Listed in the config (this server, a `peer` line); false for one only learned of (a source). */
  persistent: z.boolean().optional(),
  /** A configured peer (this server itself is not one). */
  is_peer: z.boolean().optional(),
  /** An origin one of this server's mirrors reads from. */
  is_source: z.boolean().optional(),
  ports: z
    .looseObject({
      http: z.number().optional(),
      https: z.number().optional(),
      rtmp: z.number().optional(),
    })
    .optional(),
  /** percent of all cores. */
  cpu_usage: z.number().optional(),
  /** percent of the machine's memory in use. */
  memory_usage: z.number().optional(),
  client_count: z.number().optional(),
  stream_count: z.number().optional(),
  /** kbit/s. */
  input_bitrate: z.number().optional(),
  /** kbit/s. */
  output_bitrate: z.number().optional(),
  /** percent of the server's `total_bandwidth` its output uses; absent when it has none. */
  bandwidth_usage: z.number().nullable().optional(),
  version: z.string().optional(),
  /** seconds since the server started. */
  uptime: z.number().optional(),
  /** ms since the figures were last fetched from the server (0 for this server). */
  fetch_delay: z.number().nullable().optional(),
  /** Why the last poll failed (down, slow, garbage, wrong cluster key); absent while it answers. */
  error: z.string().nullable().optional(),
});
export type ClusterServer = z.infer<typeof clusterServer>;

/** GET cluster_servers: server name → its fields. */
export const clusterServers = z.record(z.string(), clusterServer);
export type ClusterServers = z.infer<typeof clusterServers>;

/** A stream marked for cluster ingest and the servers capturing it now (one, or none). */
export const clusterIngestStream = z.looseObject({
  name: z.string(),
  running_at: z.array(z.string()),
});
export type ClusterIngestStream = z.infer<typeof clusterIngestStream>;

/** GET cluster_servers?ingest=true. */
export const clusterIngestAnswer = z.looseObject({ streams: z.array(clusterIngestStream) });
export type ClusterIngestAnswer = z.infer<typeof clusterIngestAnswer>;

/** One stream of a peer (peer detail page). */
export const peerStream = z.looseObject({
  stats: z
    .looseObject({
      /** ms since the epoch. */
      start_running_at: z.number().optional(),
      /** kbit/s. */
      bitrate: z.number().optional(),
      client_count: z.number().optional(),
    })
    .optional(),
});
export type PeerStream = z.infer<typeof peerStream>;

/** GET cluster_servers?server={name}: the peer's streams by name. */
export const peerStreamsAnswer = z.looseObject({ streams: z.record(z.string(), peerStream) });
export type PeerStreamsAnswer = z.infer<typeof peerStreamsAnswer>;

/** One origin a mirror (`source` section) reads from, and which of its streams it takes. */
export const clusterSource = z.looseObject({
  proto: z.string(),
  name: z.string(),
  port: z.number().optional(),
  prefix: z.string().optional(),
  stream_count: z.number(),
  only: z.array(z.string()).optional(),
  except: z.array(z.string()).optional(),
});
export type ClusterSource = z.infer<typeof clusterSource>;

/** GET cluster_servers?sources=true. */
export const clusterSourcesAnswer = z.looseObject({ sources: z.array(clusterSource) });
export type ClusterSourcesAnswer = z.infer<typeof clusterSourcesAnswer>;
