import { type StreamWithStats, streamStatus } from './status.js';

/** Media list toggles (spec 000 §2, §4): online, waiting and error exclude each other; dvr and transcoder don't. */
export type StatusFilter = 'online' | 'waiting' | 'error';
export type FeatureFilter = 'dvr' | 'transcoder';
export type MediaFilter = StatusFilter | FeatureFilter;
export const statusFilters: readonly StatusFilter[] = ['online', 'waiting', 'error'];
export const featureFilters: readonly FeatureFilter[] = ['dvr', 'transcoder'];

/** Adds a toggle to the active set: a status toggle replaces the other status toggles; toggling again removes it. */
export function toggleFilter(active: readonly MediaFilter[], filter: MediaFilter): MediaFilter[] {
  if (active.includes(filter)) return active.filter((f) => f !== filter);
  const isStatus = (f: MediaFilter) => (statusFilters as readonly string[]).includes(f);
  return [...active.filter((f) => !(isStatus(filter) && isStatus(f))), filter];
}

export function matchesFilter(stream: StreamWithStats, filter: MediaFilter, urlPublish: boolean): boolean {
  switch (filter) {
    case 'dvr':
      return Boolean(stream.dvr) || Boolean(stream.stats?.dvr_enabled);
    case 'transcoder':
      return Boolean(stream.transcoder && Object.keys(stream.transcoder).length > 0);
    case 'error':
      return streamStatus(stream, urlPublish).kind === 'error';
    case 'online':
      return ['online', 'delay', 'drops'].includes(streamStatus(stream, urlPublish).kind);
    case 'waiting':
      return ['waiting', 'expecting'].includes(streamStatus(stream, urlPublish).kind);
  }
}

/** Text filter: a case-insensitive substring of the name, title or any source url. */
export function matchesQuery(stream: StreamWithStats & { name?: string }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  if (stream.name?.toLowerCase().includes(q) || stream.title?.toLowerCase().includes(q)) return true;
  return (stream.urls ?? []).some((u) => u.url.toLowerCase().includes(q));
}

export type SortKey = 'position' | 'name' | 'clients' | 'bitrate' | 'runtime';
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}
export const configOrder: SortState = { key: 'position', direction: 'asc' };

/** A header click cycles none → ascending → descending → back to config order (spec 000 §2). */
export function nextSort(current: SortState, key: Exclude<SortKey, 'position'>): SortState {
  if (current.key !== key) return { key, direction: 'asc' };
  return current.direction === 'asc' ? { key, direction: 'desc' } : configOrder;
}

/**
 * The value a stream sorts by (spec 000 §5): missing values sort lowest, except runtime, where a
 * missing value sorts as infinite; bitrate compares in 10 kbit steps.
 */
export function sortValue(stream: StreamWithStats & { name?: string }, key: SortKey): number | string {
  switch (key) {
    case 'position':
      return stream.position ?? Number.MAX_SAFE_INTEGER;
    case 'name':
      return stream.name ?? '';
    case 'clients':
      return stream.stats?.client_count ?? -Infinity;
    case 'bitrate':
      return stream.stats?.bitrate === undefined ? -Infinity : Math.floor(stream.stats.bitrate / 10);
    case 'runtime':
      return stream.stats?.lifetime ?? Infinity;
  }
}

/** Sorts a copy; ties keep config order. */
export function sortStreams<T extends StreamWithStats & { name?: string }>(
  streams: readonly T[],
  sort: SortState,
): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = streams.map((s) => ({ s, v: sortValue(s, sort.key), p: s.position ?? 0 }));
  keyed.sort((a, b) => {
    const c =
      typeof a.v === 'string' && typeof b.v === 'string'
        ? a.v.localeCompare(b.v)
        : compareNumbers(a.v as number, b.v as number);
    return c !== 0 ? sign * c : a.p - b.p;
  });
  return keyed.map((k) => k.s);
}

function compareNumbers(a: number, b: number): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
