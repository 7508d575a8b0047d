import { type MirroredStream, type StreamStatus, streamStatus } from '@sluice/api';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatLifetime } from '../../lib/duration.js';

/** One mirrored stream under its mirror: status (spec 000 §4 rules, as for local streams) and figures. */
export interface MirroredRowView {
  status: StreamStatus;
  clients: string;
  bitrate: string;
  runtime: string;
  /** The stream's source_error, shown in its row (spec 000 §8). */
  error: string;
}

/** `originUrls`: the mirror's urls, the stream's sources while it has no active one. */
export function mirroredRowView(stream: MirroredStream, originUrls: readonly string[]): MirroredRowView {
  const stats = stream.stats;
  const urls = stats.url ? [stats.url] : originUrls;
  const status = streamStatus({ static: stream.static, urls: urls.map((url) => ({ url })), stats }, false);
  return {
    status,
    clients: stats.client_count === undefined ? '' : String(stats.client_count),
    bitrate: stats.alive ? formatBitrate(stats.bitrate) : '',
    runtime: stats.lifetime === undefined ? '' : formatLifetime(stats.lifetime / 1000),
    error: status.error ?? '',
  };
}
