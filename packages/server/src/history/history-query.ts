import { HISTORY_SORT_FIELDS, type HistorySortField, historySortField } from '@sluice/api';

/** `GET /flussonic/api/history?vsn=2…` after checking (spec 001 §7 history call). */
export interface HistoryV2Query {
  name: string | undefined;
  /** The streams published into a location: names `{prefix}/…`. */
  prefix: string | undefined;
  from: number;
  to: number;
  pulse: boolean;
  sessions: boolean;
  sort: HistorySortField | undefined;
  sortDir: 'asc' | 'desc' | undefined;
  group: 'type' | undefined;
}

/** Without from, the history looks back this far from `to`. */
export const DEFAULT_SPAN_MS = 24 * 3600_000;
/** The pulse of a longer span would be too many minutes to draw: refused. */
export const MAX_PULSE_SPAN_MS = 31 * 24 * 3600_000;

/** Reads the query, or names the parameter that is wrong. */
export function parseHistoryV2(query: Record<string, unknown>, nowMs: number): HistoryV2Query | string {
  const text = (key: string): string | undefined | null => {
    const value = query[key];
    if (value === undefined) return undefined;
    return typeof value === 'string' ? value : null;
  };
  for (const key of [
    'vsn',
    'name',
    'prefix',
    'from',
    'to',
    'pulse',
    'sessions',
    'sort',
    'sort_dir',
    'group',
  ]) {
    if (text(key) === null) return `${key}: give it once`;
  }
  if (text('vsn') !== '2') return 'vsn: only 2 is known';
  const flag = (key: string): boolean | string => {
    const value = text(key);
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    return `${key}: true or false`;
  };
  const time = (key: string): number | undefined | string => {
    const value = text(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (!/^\d{1,15}$/.test(value)) return `${key}: a time in Unix milliseconds`;
    return Number(value);
  };
  const to = time('to') ?? nowMs;
  if (typeof to === 'string') return to;
  const from = time('from') ?? Math.max(0, to - DEFAULT_SPAN_MS);
  if (typeof from === 'string') return from;
  if (from > to) return 'from: later than to';
  const pulse = flag('pulse');
  if (typeof pulse === 'string') return pulse;
  const sessions = flag('sessions');
  if (typeof sessions === 'string') return sessions;
  if (pulse && to - from > MAX_PULSE_SPAN_MS) return 'from: the pulse spans at most 31 days';
  let sort: HistorySortField | undefined;
  const sortText = text('sort');
  if (sortText) {
    const field = historySortField(sortText);
    if (!(HISTORY_SORT_FIELDS as readonly string[]).includes(field))
      return `sort: one of ${HISTORY_SORT_FIELDS.join(', ')} (or proto, bytes)`;
    sort = field as HistorySortField;
  }
  const dirText = text('sort_dir');
  if (dirText !== undefined && dirText !== 'asc' && dirText !== 'desc') return 'sort_dir: asc or desc';
  const groupText = text('group');
  if (groupText !== undefined && groupText !== 'type') return 'group: only type is known';
  const name = text('name') || undefined;
  const prefix = text('prefix') || undefined;
  if (name && prefix) return 'prefix: give name or prefix, not both';
  return { name, prefix, from, to, pulse, sessions, sort, sortDir: dirText, group: groupText };
}

/**
 * Sessions open during each minute of [from, to]: a session counts in every minute it overlaps.
 * `spans` are [created_at, deleted_at] ms.
 */
export function clientsPerMinute(
  spans: readonly [number, number][],
  from: number,
  to: number,
): [number, number][] {
  const first = Math.floor(from / 60_000);
  const last = Math.floor(to / 60_000);
  const counts = new Int32Array(last - first + 2);
  for (const [start, end] of spans) {
    const a = Math.max(first, Math.floor(start / 60_000)) - first;
    const b = Math.min(last, Math.floor(end / 60_000)) - first;
    if (b < a) continue;
    counts[a]! += 1;
    counts[b + 1]! -= 1;
  }
  const points: [number, number][] = [];
  let open = 0;
  for (let i = 0; i <= last - first; i++) {
    open += counts[i]!;
    points.push([(first + i) * 60_000, open]);
  }
  return points;
}
