import type { SourceEntry } from '@sluice/api';

/** A source as the config may hold it: a plain URL or an entry with options (spec 000 §3). */
export type RawSource = string | SourceEntry;

export const toEntry = (source: RawSource): SourceEntry =>
  typeof source === 'string' ? { url: source } : source;

/** Moves the item at `from` to `to` (indexes of the list before the move). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

export type SourceStatus = 'online' | 'offline' | 'switch' | 'unsaved';

/**
 * A source URL's status (spec 001 §4): unsaved when edited; online when it is the active url;
 * offline when the stream is not alive; otherwise a switch button.
 */
export function sourceStatus(
  url: string,
  savedUrl: string | undefined,
  stats: { url?: string | undefined; alive?: boolean | undefined } | undefined,
): SourceStatus {
  if (url !== savedUrl) return 'unsaved';
  if (stats?.url === url) return 'online';
  if (!stats?.alive) return 'offline';
  return 'switch';
}

/** Keys a source entry has fields for; they cannot be extra options (spec 001 §5). */
export const RESERVED_SOURCE_KEYS = [
  'priority',
  'user_agent',
  'source_timeout',
  'url',
  'buffer',
  'rtp',
  'tracks',
  'program',
  'pids',
  'dvbsubs_ocr',
  'allow_subtitles',
];

/** The option panel a source's scheme gets (spec 001 §9). */
export function sourcePanel(url: string): 'hls' | 'rtsp' | 'ts' | undefined {
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'hls' || scheme === 'hlss') return 'hls';
  if (scheme === 'rtsp' || scheme === 'rtsps') return 'rtsp';
  if (scheme && ['tshttp', 'tshttps', 'tcp', 'udp', 'mpegts'].includes(scheme)) return 'ts';
  return undefined;
}
