import { z } from 'zod';

/**
 * What Sluice servers tell each other (docs/api.md, Cluster peers): a server's figures and stream
 * list, answered to a peer that proves the cluster key. The console's shapes (GET cluster_servers
 * and its forms) are in cluster.ts.
 */

const count = z.number().int().min(0);
const figure = z.number().finite().min(0);

/** First port of each kind a server listens on (absent: none open). */
export const clusterPorts = z.looseObject({
  http: z.number().int().min(1).max(65535).optional(),
  https: z.number().int().min(1).max(65535).optional(),
  rtmp: z.number().int().min(1).max(65535).optional(),
});
export type ClusterPorts = z.infer<typeof clusterPorts>;

/**
 * A server's own figures, as it answers a peer's poll (and as this server shows itself). Bitrates
 * in kbit/s; cpu_usage and memory_usage in percent of the whole machine; uptime in seconds.
 */
export const clusterFigures = z.looseObject({
  /** The server's `hostname` (or its machine name): how it calls itself. */
  hostname: z.string().max(255),
  /** Random per process: a poll that reaches this same process is recognised as "self". */
  instance: z.string().max(64),
  ports: clusterPorts,
  cpu_usage: figure,
  memory_usage: figure,
  client_count: count,
  stream_count: count,
  input_bitrate: figure,
  output_bitrate: figure,
  /** output_bitrate over `total_bandwidth`, in percent (may pass 100); absent without total_bandwidth. */
  bandwidth_usage: figure.optional(),
  version: z.string().max(64),
  uptime: count,
});
export type ClusterFigures = z.infer<typeof clusterFigures>;

/** One stream in a server's list for its peers: alive = running now (has media). */
export const clusterPeerStream = z.looseObject({
  name: z.string().min(1).max(1024),
  alive: z.boolean(),
  /** Marked for cluster ingest (cluster/ingest/): the Ingest tab's rows. */
  ingest: z.boolean().optional(),
});
export type ClusterPeerStream = z.infer<typeof clusterPeerStream>;

/**
 * A server's answer to a peer's poll (`GET /flussonic/api/cluster/server?streams_rev=R`).
 * `streams` is absent when the asker's `streams_rev` is still current: the list is sent only when
 * it changed.
 */
export const clusterServerAnswer = z.looseObject({
  server: clusterFigures,
  streams_rev: z.string().max(64),
  streams: z.array(clusterPeerStream).max(200_000).optional(),
});
export type ClusterServerAnswer = z.infer<typeof clusterServerAnswer>;

/**
 * A server's answer to a peer asking for its streams with their stats
 * (`GET /flussonic/api/cluster/server?detail=true`): what `cluster_servers?server=NAME` shows.
 */
export const clusterServerStreamsAnswer = z.looseObject({
  streams: z.record(
    z.string().max(1024),
    z.looseObject({
      name: z.string().max(1024),
      stats: z.looseObject({
        start_running_at: z.number().optional(),
        bitrate: figure,
        client_count: count,
        alive: z.boolean(),
      }),
    }),
  ),
});
