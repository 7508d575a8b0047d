import { type MirroredStreams, mirroredStreams, type MirrorStats, mirrorStats } from '@sluice/api';
import { type RunningServer, waitFor } from './harness.js';

/** What the live view shows of the mirror at `position`, checked against the console's contract. */
export async function mirrorView(
  server: RunningServer,
  position = '0',
): Promise<{ stats: MirrorStats | undefined; streams: MirroredStreams }> {
  const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
    sources?: Record<string, { stats?: unknown; streams?: unknown }>;
  };
  const item = config.sources?.[position];
  if (!item) throw new Error(`no mirror at position ${position}`);
  return {
    stats: item.stats === undefined ? undefined : mirrorStats.parse(item.stats),
    streams: mirroredStreams.parse(item.streams ?? {}),
  };
}

/** Waits until the first server of the mirror at `position` reports `error` (null: online). */
export async function waitForServerError(
  server: RunningServer,
  matches: (error: string | null) => boolean,
  position = '0',
  timeoutMs = 15_000,
): Promise<string | null> {
  const servers = await waitFor(async () => {
    const { stats } = await mirrorView(server, position);
    const first = stats?.servers[0];
    return first && matches(first.error) ? stats.servers : undefined;
  }, timeoutMs);
  return servers[0]!.error;
}

/** An origin config: a cluster key and two small static test streams, a and b. */
export const originConfig = (key: string) =>
  `cluster_key ${key};\n` +
  `stream a {\n  url test://?size=160x120&bitrate=150;\n  static true;\n}\n` +
  `stream b {\n  url test://?size=160x120&bitrate=150&tone=880;\n  static true;\n}\n`;
