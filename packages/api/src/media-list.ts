import {
  publishingEnabled,
  isPublished,
  pulledSources,
  type StreamStatusKind,
  type StreamWithStats,
  streamStatus,
} from './status.js';

/** Media list toggles (spec 000 §2, §4): online, waiting and error exclude each other; dvr and transcoder don't. */
export type StatusFilter = 'online' | 'waiting' | 'error';
export type FeatureFilter = 'dvr' | 'transcoder';
export type MediaFilter = StatusFilter | FeatureFilter;
export const statusFilters: readonly StatusFilter[] = ['online', 'waiting', 'error'];
export const featureFilters: readonly FeatureFilter[] = ['dvr', 'transcoder'];
export const mediaFilters: readonly MediaFilter[] = [...statusFilters, ...featureFilters];

export const isMediaFilter = (value: string): value is MediaFilter =>
  (mediaFilters as readonly string[]).includes(value);
const isStatusFilter = (f: MediaFilter): f is StatusFilter =>
  (statusFilters as readonly string[]).includes(f);

/** Adds a toggle to the active set: a status toggle replaces the other status toggles; toggling again removes it. */
export function toggleFilter(active: readonly MediaFilter[], filter: MediaFilter): MediaFilter[] {
  if (active.includes(filter)) return active.filter((f) => f !== filter);
  return [...active.filter((f) => !(isStatusFilter(filter) && isStatusFilter(f))), filter];
}

/** The status toggle a display status falls under: delay and drops are online; expecting publication waits. */
export function statusFilterOf(kind: StreamStatusKind): StatusFilter | undefined {
  switch (kind) {
    case 'online':
    case 'delay':
    case 'drops':
      return 'online';
    case 'waiting':
    case 'expecting':
      return 'waiting';
    case 'error':
      return 'error';
    default:
      return undefined;
  }
}

export const hasDvr = (stream: StreamWithStats): boolean =>
  Boolean(stream.dvr) || Boolean(stream.stats?.dvr_enabled);

export const hasTranscoder = (stream: StreamWithStats): boolean =>
  Boolean(stream.transcoder && Object.keys(stream.transcoder).length > 0);

export function matchesFilter(stream: StreamWithStats, filter: MediaFilter, urlPublish: boolean): boolean {
  switch (filter) {
    case 'dvr':
      return hasDvr(stream);
    case 'transcoder':
      return hasTranscoder(stream);
    default:
      return statusFilterOf(streamStatus(stream, urlPublish).kind) === filter;
  }
}

/** The lower-cased text the query searches: name, title and every source url. */
export function queryHaystack(stream: StreamWithStats & { name?: string }): string {
  return [stream.name ?? '', stream.title ?? '', ...(stream.urls ?? []).map((u) => u.url)]
    .join('\n')
    .toLowerCase();
}

/** The query as it is compared: trimmed and lower-cased; empty matches everything. */
export const normalizeQuery = (query: string): string => query.trim().toLowerCase();

/** Text filter: a case-insensitive substring of the name, title or any source url. */
export function matchesQuery(stream: StreamWithStats & { name?: string }, query: string): boolean {
  const q = normalizeQuery(query);
  return !q || queryHaystack(stream).includes(q);
}

/** The stream list's local filter (spec 000 §2): none, published or no sources. */
export type LocalFilter = 'published' | 'no_sources';
export const localFilters: readonly LocalFilter[] = ['published', 'no_sources'];

/** Selecting the active local filter clears it. */
export const toggleLocalFilter = (active: LocalFilter | undefined, chosen: LocalFilter) =>
  active === chosen ? undefined : chosen;

/** published: publishing is enabled and something publishes now; no sources: nothing to pull or publish. */
export function matchesLocalFilter(
  stream: StreamWithStats,
  filter: LocalFilter,
  urlPublish: boolean,
): boolean {
  if (filter === 'published') return isPublished(stream, urlPublish);
  return pulledSources(stream) === 0 && !publishingEnabled(stream, urlPublish);
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

/** kbit/s per bitrate sorting step (spec 000 §5: bitrate compared in 10 kbit steps). */
export const BITRATE_SORT_STEP_KBIT = 10;

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
      return stream.stats?.bitrate === undefined
        ? -Infinity
        : Math.floor(stream.stats.bitrate / BITRATE_SORT_STEP_KBIT);
    case 'runtime':
      return stream.stats?.lifetime ?? Infinity;
  }
}

export function compareSortValues(a: number | string, b: number | string): number {
  if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b);
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Sorts a copy by `value`; ties keep config order (`position`). */
export function sortBy<T>(
  items: readonly T[],
  sort: SortState,
  value: (item: T, key: SortKey) => number | string,
  position: (item: T) => number,
): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = items.map((item) => ({ item, v: value(item, sort.key), p: position(item) }));
  keyed.sort((a, b) => sign * compareSortValues(a.v, b.v) || a.p - b.p);
  return keyed.map((k) => k.item);
}

/** Sorts a copy of a stream list; ties keep config order. */
export function sortStreams<T extends StreamWithStats & { name?: string }>(
  streams: readonly T[],
  sort: SortState,
): T[] {
  return sortBy(streams, sort, sortValue, (s) => s.position ?? 0);
}
