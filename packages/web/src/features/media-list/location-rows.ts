import type { Location, StreamStats } from '@sluice/api';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatLifetime } from '../../lib/duration.js';

/** A publishing location as the live view holds it: its config and the streams published into it. */
export type LiveLocation = Location & { streams?: Record<string, { name?: string; stats?: StreamStats }> };

/** Columns of the publishing locations list (spec 000 §2): name, clients, bitrate, runtime, source. */
export interface LocationRowView {
  clients: string;
  bitrate: string;
  runtime: string;
  source: string;
}

/** A location's row: the clients and bitrate of everything published into it; its own source urls. */
export function locationRowView(location: LiveLocation): LocationRowView {
  const streams = Object.values(location.streams ?? {});
  const sum = (pick: (s: StreamStats) => number | undefined) =>
    streams.reduce((total, s) => total + (s.stats ? (pick(s.stats) ?? 0) : 0), 0);
  return {
    clients: String(sum((s) => s.client_count)),
    bitrate: streams.length > 0 ? formatBitrate(sum((s) => (s.alive ? s.bitrate : 0))) : '',
    runtime: '',
    source: (location.urls ?? []).map((u) => u.url).join(', '),
  };
}

/** A published stream's row: its own figures; the source is who publishes, and over what. */
export function publishedRowView(stats: StreamStats | undefined): LocationRowView {
  const from = stats?.published_from;
  return {
    clients: stats?.client_count === undefined ? '' : String(stats.client_count),
    bitrate: stats?.alive ? formatBitrate(stats.bitrate) : '',
    runtime: stats?.lifetime === undefined ? '' : formatLifetime(stats.lifetime / 1000),
    source: from ? `${from}${stats.published_via ? ` (${stats.published_via})` : ''}` : '',
  };
}

/** Spec 000 §5: the confirmation before a location or a mirror is deleted. */
export function deleteConfirmation(name: string, hasDvr: boolean): string[] {
  return [`Really delete ${name} from config?`, ...(hasDvr ? ['DVR archive would remain.'] : [])];
}
