import type { Vod } from '@sluice/api';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatLifetime } from '../../lib/duration.js';
import type { LiveFile, LiveFiles, LiveFileStats } from '../vod-file/live-file.js';
import type { LocationRowView } from './location-rows.js';

/** What a VOD row sums over its opened files. */
export interface VodFigures {
  files: number;
  clients: number;
  /** kbit/s sent, over all its files. */
  bandwidth: number;
}

const belongsTo = (file: LiveFile | undefined, prefix: string): file is LiveFile =>
  file !== undefined && file.prefix === prefix;

/** The opened files of the VOD `prefix`, by name. */
export function openedFilesOf(files: LiveFiles | undefined, prefix: string): string[] {
  return Object.keys(files ?? {})
    .filter((name) => belongsTo(files?.[name], prefix))
    .sort((a, b) => a.localeCompare(b));
}

export function vodFigures(files: LiveFiles | undefined, prefix: string): VodFigures {
  const figures: VodFigures = { files: 0, clients: 0, bandwidth: 0 };
  for (const file of Object.values(files ?? {})) {
    if (!belongsTo(file, prefix)) continue;
    figures.files++;
    figures.clients += file.stats?.client_count ?? 0;
    figures.bandwidth += file.stats?.out_bandwidth ?? 0;
  }
  return figures;
}

export const sameFigures = (a: VodFigures, b: VodFigures): boolean =>
  a.files === b.files && a.clients === b.clients && a.bandwidth === b.bandwidth;

/** A VOD location's row: the clients and bitrate of its opened files; its source paths. */
export function vodRowView(vod: Vod, figures: VodFigures): LocationRowView {
  return {
    clients: String(figures.clients),
    bitrate: figures.files > 0 ? formatBitrate(figures.bandwidth) : '',
    runtime: '',
    source: (vod.urls ?? []).map((u) => u.url).join(', '),
  };
}

/** An opened file's row: its clients, the bitrate sent to them, how long it has been open. */
export function fileRowView(stats: LiveFileStats | undefined, nowMs: number): LocationRowView {
  return {
    clients: stats?.client_count === undefined ? '' : String(stats.client_count),
    bitrate: stats?.out_bandwidth === undefined ? '' : formatBitrate(stats.out_bandwidth),
    runtime:
      stats?.opened_at === undefined
        ? ''
        : formatLifetime(Math.max(0, Math.floor((nowMs - stats.opened_at) / 1000))),
    source: '',
  };
}
