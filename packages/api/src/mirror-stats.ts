import { z } from 'zod';
import { streamStats } from './stats.js';

/**
 * Live view of an origin mirror (issue 6): what `sources[pos]` carries besides its config.
 * The server writes these; the console's Origin servers section and mirrored-item page read them.
 */

/** One origin url of a mirror, as last polled. */
export const mirrorServerStats = z.looseObject({
  /** The url exactly as configured in the mirror's `urls`. */
  name: z.string(),
  /** null = online; otherwise why the last poll failed ('connection refused', 'cluster key rejected', …). */
  error: z.string().nullable(),
  /** Streams this origin listed on its last successful poll (kept from the last success while erroring). */
  stream_names: z.array(z.string()),
});
export type MirrorServerStats = z.infer<typeof mirrorServerStats>;

/** `sources[pos].stats`. */
export const mirrorStats = z.looseObject({
  servers: z.array(mirrorServerStats),
});
export type MirrorStats = z.infer<typeof mirrorStats>;

/** One stream mirrored from an origin: `sources[pos].streams[name]`. Names in `except` are absent. */
export const mirroredStream = z.looseObject({
  name: z.string(),
  /** true: pulled all the time; false: pulled on demand (only while it has clients). */
  static: z.boolean(),
  /** The same figures local streams carry (alive, bitrate, client_count, url = active source, source_error, lifetime …). */
  stats: streamStats,
});
export type MirroredStream = z.infer<typeof mirroredStream>;

/** `sources[pos].streams`, keyed by stream name. */
export const mirroredStreams = z.record(z.string(), mirroredStream);
export type MirroredStreams = z.infer<typeof mirroredStreams>;

/** One stream in an origin's answer to a mirror (`GET /flussonic/api/cluster/streams`). */
export const clusterStream = z.looseObject({
  name: z.string(),
  /** Runs on the origin all the time (false: on demand there). */
  static: z.boolean(),
  /** Receiving media on the origin now. */
  alive: z.boolean(),
});
export type ClusterStream = z.infer<typeof clusterStream>;

/** The origin's answer: its streams, for a peer that proved the cluster key. */
export const clusterStreamsAnswer = z.looseObject({
  streams: z.array(clusterStream),
});
export type ClusterStreamsAnswer = z.infer<typeof clusterStreamsAnswer>;
