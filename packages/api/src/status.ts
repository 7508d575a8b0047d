import type { Stream } from './config/stream.js';
import type { StreamStats } from './stats.js';

/** Spec 000 §9 delay thresholds, in milliseconds. */
export const DELAY_WARNING_MS = 5000;
export const DELAY_WARNING_HLS_MS = 10_000;
export const DELAY_UNAVAILABLE_MS = 60_000;
export const DELAY_DETAIL_MS = 8000;

export type StreamStatusKind =
  'disabled' | 'error' | 'expecting' | 'waiting' | 'no_sources' | 'delay' | 'drops' | 'online';

export interface StreamStatus {
  kind: StreamStatusKind;
  /** What the list shows: 'disabled', 'error', 'delay 12s', '3 drops/s', … */
  label: string;
  /** Detail text (spec 000 §4): the delay when over 8 s, and the retry count. */
  detail: string;
  /** The source_error text the row shows (spec 000 §8), unless it is thumbnails_are_not_fetched. */
  error?: string;
  /** Short value (spec 000 §4): off, dis, err, on. */
  short: 'off' | 'dis' | 'err' | 'on';
}

export type StreamWithStats = Stream & { stats?: StreamStats };

const PUBLISH_URL = /^publish:\/\//;
const HLS_URL = /^(hlss?|m4fs?):\/\//;

/** Spec 000 §4 Publishing: publish_enabled, or (with the url_publish capability) a publish:// source. */
export function publishingEnabled(stream: Stream, urlPublish: boolean): boolean {
  if (stream.publish_enabled) return true;
  return urlPublish && (stream.urls ?? []).some((u) => PUBLISH_URL.test(u.url));
}

/** A stream counts as published when publishing is enabled and something publishes into it now. */
export function isPublished(stream: StreamWithStats, urlPublish: boolean): boolean {
  return publishingEnabled(stream, urlPublish) && Boolean(stream.stats?.published_from);
}

/** Sources other than publish:// (spec 000 §4 "only publishing is configured"). */
export function pulledSources(stream: Stream): number {
  return (stream.urls ?? []).filter((u) => !PUBLISH_URL.test(u.url)).length;
}

/** Unavailable: ts_delay over 60 s, or a source being retried (spec 000 §4). */
export function isUnavailable(stats: StreamStats | undefined): boolean {
  return (stats?.ts_delay ?? 0) > DELAY_UNAVAILABLE_MS || (stats?.retry_count ?? 0) > 0;
}

/** The lower bound of the delay warning: 10 s when the active source is HLS or m4f, else 5 s. */
export function delayWarningMs(stream: StreamWithStats): number {
  const active = stream.stats?.url ?? stream.urls?.[0]?.url ?? '';
  return HLS_URL.test(active) ? DELAY_WARNING_HLS_MS : DELAY_WARNING_MS;
}

/** The display status of a stream: the eight rules of spec 000 §4, evaluated in order. */
export function streamStatus(stream: StreamWithStats, urlPublish: boolean): StreamStatus {
  const stats = stream.stats;
  const detail = statusDetail(stats);
  const sourceError =
    stats?.source_error && stats.source_error !== 'thumbnails_are_not_fetched'
      ? stats.source_error
      : undefined;
  const publishing = publishingEnabled(stream, urlPublish);
  const pulled = pulledSources(stream);

  if (stream.disabled) return { kind: 'disabled', label: 'disabled', detail: '', short: 'dis' };
  if (sourceError || isUnavailable(stats))
    return sourceError
      ? { kind: 'error', label: 'error', detail, short: 'err', error: sourceError }
      : { kind: 'error', label: 'error', detail, short: 'err' };
  if (publishing && pulled === 0 && !stats?.alive)
    return { kind: 'expecting', label: 'expecting publication', detail, short: 'off' };
  if (!stream.static && !stats?.alive)
    return { kind: 'waiting', label: 'waiting for clients', detail, short: 'off' };
  if (pulled === 0 && !publishing)
    return { kind: 'no_sources', label: 'no sources defined', detail, short: 'off' };
  const delay = stats?.ts_delay ?? 0;
  if (delay > delayWarningMs(stream))
    return { kind: 'delay', label: `delay ${Math.round(delay / 1000)}s`, detail, short: 'on' };
  const drops = stats?.input_error_rate;
  if (drops) return { kind: 'drops', label: `${formatRate(drops)} drops/s`, detail, short: 'on' };
  return { kind: 'online', label: 'online', detail, short: 'on' };
}

/** Detail text: the delay when it exceeds 8 s, and the retry count. */
function statusDetail(stats: StreamStats | undefined): string {
  const parts: string[] = [];
  if ((stats?.ts_delay ?? 0) > DELAY_DETAIL_MS)
    parts.push(`delay ${Math.round((stats?.ts_delay ?? 0) / 1000)}s`);
  if ((stats?.retry_count ?? 0) > 0) parts.push(`retries: ${stats?.retry_count}`);
  return parts.join(', ');
}

function formatRate(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
