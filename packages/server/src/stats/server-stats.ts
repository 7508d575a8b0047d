import type { Config, ServerStats } from '@sluice/api';
import { getIn } from '../live/live-view.js';

export interface ServerFigures {
  version: string;
  build: number;
  hostname: string;
  startedAt: number;
  /** Warnings the console shows as notifications, keyed error_<what>. */
  errors: () => Record<string, string>;
  /** Traffic and client totals measured by the engine; zero while nothing is flowing. */
  traffic: () => { inputKbit: number; outputKbit: number; clients: number; openedFiles: number };
  /**
   * The Pulse store as it is now: collecting (its once-a-second loop runs) and persisted (written
   * to the pulsedb file, not held in memory after the file failed). Absent: no Pulse, both off.
   */
  pulse?: () => { collecting: boolean; persisted: boolean };
}

/** How many streams there are (configured, published, mirrored) and how many are online now. */
export interface StreamCounts {
  total: number;
  online: number;
}

/**
 * Walks every stream: ~10 ms at 20,000 (enumerating a big object's keys is what costs). Run each
 * second; an edit that adds and removes no stream reuses the last counts (main.ts).
 */
export function streamCounts(config: Config, view: Record<string, unknown>): StreamCounts {
  // The view's items read directly: a getIn path per stream cost more than the walk.
  const configured = config.streams ?? {};
  const live = (view.streams ?? {}) as Record<string, { stats?: { alive?: unknown } } | undefined>;
  let total = 0;
  let online = 0;
  for (const name in configured) {
    total++;
    if (live[name]?.stats?.alive === true) online++;
  }
  let published = 0;
  for (const [prefix, location] of Object.entries(
    (view.lives ?? {}) as Record<string, { streams?: Record<string, unknown> }>,
  )) {
    for (const name of Object.keys(location.streams ?? {})) {
      published++;
      if (getIn(view, ['lives', prefix, 'streams', name, 'stats', 'alive']) === true) online++;
    }
  }
  // Streams mirrored from origins (cluster/mirrors.ts) count like local ones.
  for (const [position, mirror] of Object.entries(
    (view.sources ?? {}) as Record<string, { streams?: Record<string, unknown> }>,
  )) {
    for (const name of Object.keys(mirror.streams ?? {})) {
      published++;
      if (getIn(view, ['sources', position, 'streams', name, 'stats', 'alive']) === true) online++;
    }
  }
  return { total: total + published, online };
}

/** The top-level `stats` of the live view (spec 000 §3 "Server stats"), from measured figures only. */
export function serverStats(
  config: Config,
  view: Record<string, unknown>,
  figures: ServerFigures,
  counts: StreamCounts = streamCounts(config, view),
): ServerStats {
  const { total, online } = counts;
  const traffic = figures.traffic();
  const pulse = figures.pulse?.();
  return {
    version: figures.version,
    build: figures.build,
    hostname: figures.hostname,
    uptime: Math.floor((Date.now() - figures.startedAt) / 1000),
    total_streams: total,
    online_streams: online,
    total_clients: traffic.clients,
    input_kbit: Math.round(traffic.inputKbit),
    output_kbit: Math.round(traffic.outputKbit),
    opened_files: traffic.openedFiles,
    // "Collecting statistics" while the Pulse loop runs; "Enable statistics collection" warns
    // when what it collects is not kept on disk (spec 000 §2 header status line).
    retroview_enabled: pulse?.collecting ?? false,
    retroview_configured: pulse?.persisted ?? false,
    status: figures.errors(),
  };
}
