import { historySortField } from '@sluice/api';

/**
 * The History tab's state (spec 001 §2 History, §4, §7): the query flags pulse, sessions and
 * report held in the page URL as true/false, the sort of the sessions table, and the history call
 * they make.
 */
export interface HistoryFlags {
  pulse: boolean;
  sessions: boolean;
  report: boolean;
}

const DEFAULTS: HistoryFlags = { pulse: true, sessions: true, report: false };

const flag = (params: URLSearchParams, key: keyof HistoryFlags): boolean => {
  const value = params.get(key);
  return value === 'true' ? true : value === 'false' ? false : DEFAULTS[key];
};

export function readFlags(params: URLSearchParams): HistoryFlags {
  return { pulse: flag(params, 'pulse'), sessions: flag(params, 'sessions'), report: flag(params, 'report') };
}

/** The page's query with one flag flipped; other parameters kept. */
export function toggledSearch(params: URLSearchParams, key: keyof HistoryFlags): string {
  const next = new URLSearchParams(params);
  next.set(key, String(!flag(params, key)));
  return `?${next.toString()}`;
}

/**
 * The links and the flag each flips (spec 001 §2 wording). One link speaks of sessions at a time:
 * with the table hidden, "Show sessions" (or "Show report") brings it back; with the report shown, "Show sessions"
 * turns back to the sessions (a "Hide sessions" beside it, meaning hide the report, read as a
 * contradiction); with the sessions shown, "Hide sessions" and "Show report".
 */
export function historyLinks(flags: HistoryFlags): { key: keyof HistoryFlags; label: string }[] {
  const graph = { key: 'pulse' as const, label: flags.pulse ? 'Hide graph' : 'Show graph' };
  if (!flags.sessions)
    return [graph, { key: 'sessions', label: flags.report ? 'Show report' : 'Show sessions' }];
  if (flags.report) return [graph, { key: 'report', label: 'Show sessions' }];
  return [graph, { key: 'sessions', label: 'Hide sessions' }, { key: 'report', label: 'Show report' }];
}

export type SortDir = 'asc' | 'desc';
export interface HistorySort {
  column: string;
  dir: SortDir;
}

/** A click on a column's arrows: none → asc → desc → none; another column starts at asc (spec 001 §4, §9). */
export function nextSort(current: HistorySort | undefined, column: string): HistorySort | undefined {
  if (current?.column !== column) return { column, dir: 'asc' };
  return current.dir === 'asc' ? { column, dir: 'desc' } : undefined;
}

/** Sessions table columns: label and the column name its sort asks for. */
export const SESSION_COLUMNS = [
  { label: 'Protocol', column: 'proto' },
  { label: 'IP', column: 'ip' },
  { label: 'Country', column: 'country' },
  { label: 'Created at', column: 'created_at' },
  { label: 'Duration', column: 'duration' },
  { label: 'Bytes', column: 'bytes' },
  { label: 'UserID', column: 'user_id' },
] as const;

export const REPORT_COLUMNS = [
  'Protocol',
  'Country',
  'Avg duration',
  'Total duration',
  'Avg bytes',
  'Total bytes',
  'Count',
] as const;

/** How far back the tab looks. */
export const HISTORY_SPAN_MS = 24 * 60 * 60 * 1000;

/** Whose history: one stream by name, or the streams published into a location by its prefix. */
export type HistoryTarget = { name: string } | { prefix: string };

/**
 * `GET /flussonic/api/history?vsn=2…` (spec 001 §7) for the flags and sort: pulse and sessions only
 * when shown, group=type for the report, sort (proto → type, bytes → bytes_sent) for the sessions.
 */
export function historyQuery(
  target: HistoryTarget,
  range: { from: number; to: number },
  flags: HistoryFlags,
  sort: HistorySort | undefined,
): string {
  const query = new URLSearchParams({ vsn: '2' });
  if ('name' in target) query.set('name', target.name);
  else query.set('prefix', target.prefix);
  query.set('from', String(range.from));
  query.set('to', String(range.to));
  if (flags.pulse) query.set('pulse', 'true');
  if (flags.sessions) {
    query.set('sessions', 'true');
    if (flags.report) query.set('group', 'type');
    else if (sort) {
      query.set('sort', historySortField(sort.column));
      query.set('sort_dir', sort.dir);
    }
  }
  return `/history?${query.toString()}`;
}
