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
}

/** The top-level `stats` of the live view (spec 000 §3 "Server stats"), from measured figures only. */
export function serverStats(
  config: Config,
  view: Record<string, unknown>,
  figures: ServerFigures,
): ServerStats {
  const streams = Object.keys(config.streams ?? {});
  let online = 0;
  for (const name of streams) if (getIn(view, ['streams', name, 'stats', 'alive']) === true) online++;
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
  const traffic = figures.traffic();
  return {
    version: figures.version,
    build: figures.build,
    hostname: figures.hostname,
    uptime: Math.floor((Date.now() - figures.startedAt) / 1000),
    total_streams: streams.length + published,
    online_streams: online,
    total_clients: traffic.clients,
    input_kbit: Math.round(traffic.inputKbit),
    output_kbit: Math.round(traffic.outputKbit),
    opened_files: traffic.openedFiles,
    // Pulse (statistics collection) arrives with its own issue; until then it is honestly off.
    retroview_enabled: false,
    retroview_configured: Boolean(config.pulsedb),
    status: figures.errors(),
  };
}
