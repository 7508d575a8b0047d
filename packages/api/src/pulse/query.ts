/**
 * The Pulse query grammar (spec 000 §5), shared by the server (HTTP range call, `pulse_subscribe:`
 * topics) and the console's custom query field, so both sides accept exactly the same text.
 *
 *   [group:][period-aggregator:]metric[{key=value,...}]
 *
 * - group: max, min or sum — how the series that match the tags are combined into one; without it
 *   each tag set is its own series.
 * - period: 1s to 1h (`<n>s`, `<n>m`, `<n>h`), the window the points are downsampled to.
 * - aggregator: tavg8 for traffic metrics, savg for the others (the spec ties it to the metric).
 * - metric: one of PULSE_METRICS; tags filter its series (`disk_io_usage{disk=sda}`).
 * Each part is non-empty and free of `; { } newline tab , = :`; at most three colon-separated parts.
 */

/** How a metric's values read: the page picks axis units and bounds from it. */
export type PulseMetricKind = 'traffic' | 'percent' | 'bytes' | 'count' | 'ratio' | 'milliseconds';

/**
 * Every metric the store collects: the spec 000 §9 list, then the Node.js equivalents of the
 * spec's Erlang panels (event-loop utilization for "Scheduler utilization", active handles and
 * requests for "Erlang active tasks"), per-partition space usage, and the server process's own
 * CPU (with its ffmpeg children) and memory.
 * Traffic is kbit/s, memory bytes, percents 0..100, event-loop utilization 0..1.
 */
export const PULSE_METRIC_KINDS = {
  total_input: 'traffic',
  total_output: 'traffic',
  total_clients: 'count',
  media_input: 'traffic',
  media_output: 'traffic',
  media_clients: 'count',
  disk_io_usage: 'percent',
  cpu_usage: 'percent',
  total_memavail: 'bytes',
  total_memused: 'bytes',
  total_memusage: 'percent',
  thumbnailer_memusage: 'bytes',
  thumbnailer_in: 'traffic',
  thumbnailer_out: 'traffic',
  event_loop_utilization: 'ratio',
  active_handles: 'count',
  active_requests: 'count',
  partition_usage: 'percent',
  server_cpu_usage: 'percent',
  server_memused: 'bytes',
  event_loop_lag_ms: 'milliseconds',
} as const satisfies Record<string, PulseMetricKind>;

export type PulseMetric = keyof typeof PULSE_METRIC_KINDS;
export const PULSE_METRICS = Object.keys(PULSE_METRIC_KINDS) as PulseMetric[];

export const PULSE_GROUPS = ['max', 'min', 'sum'] as const;
export type PulseGroup = (typeof PULSE_GROUPS)[number];
export type PulseAggregator = 'tavg8' | 'savg';

export const PULSE_PERIOD_MIN_S = 1;
export const PULSE_PERIOD_MAX_S = 3600;
/** Longer text is refused before it is looked at (it arrives from the network too). */
export const PULSE_QUERY_MAX_CHARS = 1000;
/** The spec's message for a query that does not parse (spec 000 §8). */
export const PULSE_INVALID_FORMAT = 'invalid format';

export interface PulseQuery {
  group?: PulseGroup;
  /** Downsampling window in seconds, 1..3600; absent: the store's own resolution. */
  period_s?: number;
  /** Present exactly when period_s is, and always the metric's own (see pulseAggregatorFor). */
  aggregator?: PulseAggregator;
  metric: PulseMetric;
  /** Series filter; empty: every series of the metric. */
  tags: Record<string, string>;
}

export function isPulseMetric(name: string): name is PulseMetric {
  return Object.prototype.hasOwnProperty.call(PULSE_METRIC_KINDS, name);
}

/** tavg8 for traffic, savg for the others (spec 000 §5). */
export function pulseAggregatorFor(metric: PulseMetric): PulseAggregator {
  return PULSE_METRIC_KINDS[metric] === 'traffic' ? 'tavg8' : 'savg';
}

const FORBIDDEN = /[;{}\n\r\t,=:]/;
const PERIOD = /^([1-9]\d{0,3})([smh])$/;
const UNIT_S = { s: 1, m: 60, h: 3600 } as const;

/** A part as the spec allows it: non-empty and free of the separator characters. */
export function isPulsePart(text: string): boolean {
  return text.length > 0 && !FORBIDDEN.test(text);
}

function parsePeriodS(text: string): number | undefined {
  const m = PERIOD.exec(text);
  if (!m) return undefined;
  const seconds = Number(m[1]) * UNIT_S[m[2] as keyof typeof UNIT_S];
  return seconds >= PULSE_PERIOD_MIN_S && seconds <= PULSE_PERIOD_MAX_S ? seconds : undefined;
}

/** `60` → `1m`, `90` → `90s`, `3600` → `1h`: the largest unit that divides the period. */
export function formatPulsePeriod(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

function parseTags(body: string): Record<string, string> | undefined {
  if (body === '') return {};
  const entries: [string, string][] = [];
  const keys = new Set<string>();
  for (const pair of body.split(',')) {
    const eq = pair.indexOf('=');
    if (eq < 0) return undefined;
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!isPulsePart(key) || !isPulsePart(value) || keys.has(key)) return undefined;
    keys.add(key);
    entries.push([key, value]);
  }
  // fromEntries defines own properties: a tag named __proto__ stays a tag.
  return Object.fromEntries(entries);
}

function parseDownsample(text: string): { period_s: number; aggregator: string } | undefined {
  const dash = text.indexOf('-');
  if (dash < 0) return undefined;
  const period_s = parsePeriodS(text.slice(0, dash));
  return period_s === undefined ? undefined : { period_s, aggregator: text.slice(dash + 1) };
}

/** The query in `text`, or undefined for anything the grammar refuses ("invalid format"). Never throws. */
export function parsePulseQuery(text: string): PulseQuery | undefined {
  if (typeof text !== 'string' || text.length > PULSE_QUERY_MAX_CHARS) return undefined;
  let head = text.trim();
  let tags: Record<string, string> = {};
  const brace = head.indexOf('{');
  if (brace >= 0) {
    if (!head.endsWith('}')) return undefined;
    const parsed = parseTags(head.slice(brace + 1, -1));
    if (!parsed) return undefined;
    tags = parsed;
    head = head.slice(0, brace);
  }
  const parts = head.split(':');
  if (parts.length > 3 || !parts.every(isPulsePart)) return undefined;
  const metric = parts.pop() ?? '';
  if (!isPulseMetric(metric)) return undefined;
  const query: PulseQuery = { metric, tags };
  const isGroup = (part: string | undefined): part is PulseGroup =>
    part !== undefined && (PULSE_GROUPS as readonly string[]).includes(part);
  if (parts.length === 2 || (parts.length === 1 && isGroup(parts[0]))) {
    const group = parts.shift();
    if (!isGroup(group)) return undefined;
    query.group = group;
  }
  const downsampleText = parts[0];
  if (downsampleText !== undefined) {
    const downsample = parseDownsample(downsampleText);
    if (!downsample || downsample.aggregator !== pulseAggregatorFor(metric)) return undefined;
    query.period_s = downsample.period_s;
    query.aggregator = downsample.aggregator;
  }
  return query;
}

/** The canonical text of a query: parsePulseQuery(formatPulseQuery(q)) gives q back. */
export function formatPulseQuery(q: PulseQuery): string {
  const parts: string[] = [];
  if (q.group) parts.push(q.group);
  if (q.period_s !== undefined) {
    parts.push(`${formatPulsePeriod(q.period_s)}-${q.aggregator ?? pulseAggregatorFor(q.metric)}`);
  }
  parts.push(q.metric);
  const tags = Object.entries(q.tags).map(([k, v]) => `${k}=${v}`);
  return parts.join(':') + (tags.length > 0 ? `{${tags.join(',')}}` : '');
}

/** Whether a series' tags match the query's filter (every query tag present with its value). */
export function pulseTagsMatch(filter: Record<string, string>, tags: Record<string, string>): boolean {
  return Object.entries(filter).every(
    ([k, v]) => Object.prototype.hasOwnProperty.call(tags, k) && tags[k] === v,
  );
}
