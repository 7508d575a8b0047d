import { type StreamStatus, streamStatus } from '@sluice/api';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatLifetime } from '../../lib/duration.js';
import type { NamedStream } from './stream-facts.js';

/** One row of the stream list, as text (spec 000 §2 Media list, §4 display status, §9 lifetime). */
export interface StreamRowView {
  status: StreamStatus;
  clients: string;
  bitrate: string;
  /** days hh:mm:ss while the stream runs. */
  runtime: string;
  /** The active source, or the first configured one while none is active. */
  source: string;
  /** The source_error text, shown in the row (spec 000 §8). */
  error: string;
}

export function streamRowView(name: string, stream: NamedStream, urlPublish: boolean): StreamRowView {
  const stats = stream.stats;
  const status = streamStatus({ ...stream, name }, urlPublish);
  return {
    status,
    clients: stats?.client_count === undefined ? '' : String(stats.client_count),
    bitrate: stats?.alive ? formatBitrate(stats.bitrate) : '',
    runtime: stats?.lifetime === undefined ? '' : formatLifetime(stats.lifetime / 1000),
    source: stats?.url ?? stream.urls?.[0]?.url ?? '',
    error: status.error ?? '',
  };
}

/** The badge colour of each display status. */
export const statusColor: Record<StreamStatus['kind'], string> = {
  disabled: 'gray',
  error: 'red',
  expecting: 'blue',
  waiting: 'gray',
  no_sources: 'yellow',
  delay: 'orange',
  drops: 'orange',
  online: 'green',
};
