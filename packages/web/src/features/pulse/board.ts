import {
  PULSE_METRIC_KINDS,
  type PulseMetric,
  type PulseMetricKind,
  formatPulseQuery,
  parsePulseQuery,
} from '@sluice/api';

/** One graph of the default board (spec 000 §2 Pulse board). */
export interface BoardGraph {
  id: string;
  title: string;
  /** The queries drawn together; their metrics share one kind. */
  queries: string[];
  /** One graph per tag set (per disk, per partition) instead of one line per tag set. */
  split?: true;
}

/**
 * The default board. The spec's Erlang panels become what a Node.js server has: "Scheduler
 * utilization" is the event loop's utilization, "Erlang active tasks" its active handles and requests.
 */
export const DEFAULT_BOARD: BoardGraph[] = [
  { id: 'traffic', title: 'Traffic', queries: ['total_input', 'total_output'] },
  { id: 'memory', title: 'Memory usage', queries: ['total_memused', 'total_memavail', 'server_memused'] },
  { id: 'cpu', title: 'CPU usage', queries: ['cpu_usage', 'server_cpu_usage'] },
  { id: 'event-loop', title: 'Event loop utilization', queries: ['event_loop_utilization'] },
  {
    id: 'tasks',
    title: 'Active tasks (handles and requests)',
    queries: ['active_handles', 'active_requests'],
  },
  { id: 'disk-io', title: 'HDD I/O usage', queries: ['disk_io_usage'], split: true },
  { id: 'partitions', title: 'Disk space usage', queries: ['partition_usage'], split: true },
];

/** Line names an operator reads, by metric. */
const METRIC_LABELS: Partial<Record<PulseMetric, string>> = {
  total_input: 'input',
  total_output: 'output',
  total_memused: 'used',
  total_memavail: 'available',
  server_memused: 'server process',
  cpu_usage: 'machine',
  server_cpu_usage: 'server and its ffmpeg',
  event_loop_utilization: 'utilization',
  active_handles: 'handles',
  active_requests: 'requests',
};

/** The last-hours panel's span; the server answers it at minute resolution. */
export const HOURS_SPAN_MS = 3 * 3600_000;
/** The last-minute panel keeps this much of what the topic sends each second. */
export const MINUTE_SPAN_MS = 60_000;
/** The last-hours panel asks again this often, so it grows while the page stays open. */
export const HOURS_REFRESH_MS = 60_000;

export function metricOf(query: string): PulseMetric | undefined {
  return parsePulseQuery(query)?.metric;
}

/** The same text the server echoes for a query, whatever spelling either side used. */
export function canonicalQuery(query: string): string {
  const parsed = parsePulseQuery(query);
  return parsed ? formatPulseQuery(parsed) : query;
}

export function kindOf(queries: readonly string[]): PulseMetricKind {
  const metric = queries.map(metricOf).find((m) => m !== undefined);
  return metric ? PULSE_METRIC_KINDS[metric] : 'count';
}

/** `sda`, `/var/lib/sluice`: the values of a series' tags, which name it among its metric's series. */
export const tagsLabel = (tags: Record<string, string>): string =>
  Object.keys(tags)
    .sort()
    .map((k) => tags[k])
    .join(' ');

export const tagsKey = (tags: Record<string, string>): string =>
  JSON.stringify(Object.entries(tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** A line's name: the metric's own label, with its tags when it has any. */
export function seriesLabel(query: string, tags: Record<string, string>, single: boolean): string {
  const metric = metricOf(query);
  const base = single ? '' : ((metric && METRIC_LABELS[metric]) ?? query);
  return [base, tagsLabel(tags)].filter((s) => s !== '').join(' ') || query;
}

const MB = 1048576; // spec 000 §9: memory graph ratio

/** What a stored value is drawn as: traffic kbit/s → bit/s, bytes → MB, a 0..1 ratio → percent. */
export function scaleValue(kind: PulseMetricKind, value: number): number {
  if (kind === 'traffic') return value * 1000;
  if (kind === 'bytes') return value / MB;
  if (kind === 'ratio') return value * 100;
  return value;
}

/** Percent graphs are bounded 0 to 100 (spec 000 §9). */
export const isPercent = (kind: PulseMetricKind): boolean => kind === 'percent' || kind === 'ratio';

export function unitOf(kind: PulseMetricKind): string {
  if (kind === 'traffic') return 'bit/s';
  if (kind === 'bytes') return 'MB';
  if (isPercent(kind)) return '%';
  if (kind === 'milliseconds') return 'ms';
  return '';
}

/** The title of one graph of a split: the disk, or the partition's path and its usage now. */
export function splitTitle(
  graph: BoardGraph,
  tags: Record<string, string>,
  latest: number | undefined,
): string {
  const name = tagsLabel(tags);
  if (graph.id !== 'partitions') return `${graph.title}: ${name}`;
  return `${graph.title}: ${name}${latest === undefined ? '' : ` (${Math.round(latest)} %)`}`;
}

/** The graph of a custom query: the query is its title; per-tag series stay lines of one graph. */
export const customGraph = (query: string): BoardGraph => ({ id: 'custom', title: query, queries: [query] });

export const pulseRangePath = (query: string, fromMs: number, toMs: number): string =>
  `/pulse?${new URLSearchParams({ query, from: String(fromMs), to: String(toMs) })}`;
