import {
  formatPulseQuery,
  type PulseAggregator,
  type PulseAnswer,
  type PulseAnswerSeries,
  type PulseGroup,
  type PulseQuery,
  pulseTagsMatch,
} from '@sluice/api';
import { RESOLUTIONS, type Resolution, resolutionFor } from './pulse-resolutions.js';
import type { PulsePoint, PulseStore, SeriesInfo } from './pulse-store.js';

/**
 * tavg8 holds a value until the next one, at most this many steps of the resolution read: a short
 * gap (a missed sample) is bridged, a stream that stopped does not keep its last rate.
 */
export const TAVG_HOLD_STEPS = 8;

type Buckets = Map<number, number>;

/**
 * Answers a parsed query over [fromMs, toMs]: the series of the metric that match its tags, read
 * at the range's resolution, downsampled to the query's period (its aggregator), then combined by
 * its group into one series (without a group each tag set is its own series).
 */
export function runPulseQuery(
  store: PulseStore,
  query: PulseQuery,
  range: { fromMs: number; toMs: number; nowMs: number; resolution?: Resolution },
): PulseAnswer {
  const r = range.resolution ?? resolutionFor(range.fromMs, range.nowMs);
  // Nothing is kept before the hour resolution's year.
  const fromMs = Math.max(range.fromMs, range.nowMs - RESOLUTIONS[2].keepMs);
  const stepMs = Math.max(r.stepMs, (query.period_s ?? 0) * 1000);
  const aggregator = query.aggregator ?? 'savg';
  const all = store.series(query.metric).filter((s) => pulseTagsMatch(query.tags, s.tags));
  if (stepMs === r.stepMs) return runDense(store, query, all, r, fromMs, range.toMs);
  const downsampled = all.map((info) => ({
    tags: info.tags,
    buckets: downsample(store.points(info, r.level, fromMs, range.toMs), stepMs, r.stepMs, aggregator),
  }));
  const series: PulseAnswerSeries[] = query.group
    ? downsampled.length > 0
      ? [
          {
            tags: query.tags,
            points: toPoints(
              combine(
                downsampled.map((d) => d.buckets),
                query.group,
              ),
              stepMs,
            ),
          },
        ]
      : []
    : downsampled.map((d) => ({ tags: d.tags, points: toPoints(d.buckets, stepMs) }));
  return { query: formatPulseQuery(query), step_ms: stepMs, series };
}

/**
 * A query at its resolution's own step (every board panel): each series read as one array of
 * slots, tavg8's hold filled in place, the group folded slot by slot (a 7-day sum of 100 streams
 * is a million values: as [ms, value] pairs in Maps it took 1.5 s).
 */
function runDense(
  store: PulseStore,
  query: PulseQuery,
  all: readonly SeriesInfo[],
  r: Resolution,
  fromMs: number,
  toMs: number,
): PulseAnswer {
  const step = r.stepMs;
  const first = Math.ceil(fromMs / step) * step;
  const count = Math.max(0, Math.floor((toMs - first) / step) + 1);
  const answer = (series: PulseAnswerSeries[]): PulseAnswer => ({
    query: formatPulseQuery(query),
    step_ms: step,
    series,
  });
  const hold = query.aggregator === 'tavg8';
  // Every matching series in one read (one SQLite statement), each handed over in one reused array:
  // 100 streams read one by one were 100 statements and 100 sets of block objects.
  if (!query.group) {
    const series: PulseAnswerSeries[] = [];
    store.dense(all, r.level, first, count, (i, values) => {
      if (hold) holdGaps(values);
      series.push({ tags: all[i]!.tags, points: denseToPoints(values, first, step) });
    });
    return answer(series);
  }
  if (all.length === 0) return answer([]);
  const folded = new Float64Array(count).fill(NaN);
  const group = query.group;
  store.dense(all, r.level, first, count, (_, values) => {
    if (hold) holdGaps(values);
    for (let k = 0; k < count; k++) {
      const v = values[k]!;
      const seen = folded[k]!;
      if (Number.isNaN(v)) continue;
      if (Number.isNaN(seen)) folded[k] = v;
      else folded[k] = group === 'sum' ? seen + v : group === 'max' ? Math.max(seen, v) : Math.min(seen, v);
    }
  });
  return answer([{ tags: query.tags, points: denseToPoints(folded, first, step) }]);
}

/** tavg8 at the resolution's step: a value holds over the empty slots after it, at most 8 steps. */
function holdGaps(values: Float64Array): void {
  let last = NaN;
  let held = 0;
  for (let k = 0; k < values.length; k++) {
    if (!Number.isNaN(values[k]!)) {
      last = values[k]!;
      held = 0;
    } else if (!Number.isNaN(last) && ++held < TAVG_HOLD_STEPS) values[k] = last;
  }
}

/** Slots to points: the measured ones, and a null just after the last one before a gap. */
function denseToPoints(values: Float64Array, first: number, step: number): [number, number | null][] {
  const out: [number, number | null][] = [];
  let previous = -1;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (Number.isNaN(v)) continue;
    if (previous >= 0 && k - previous > 1) out.push([first + (previous + 1) * step, null]);
    previous = k;
    out.push([first + k * step, round(v)]);
  }
  return out;
}

/**
 * Points (at `resolutionMs` apart) into buckets of `stepMs`, each keyed by its start.
 * savg: the plain mean of the points in the bucket. tavg8: the time-weighted mean, each point
 * standing for the time until the next one (at most TAVG_HOLD_STEPS steps), split at bucket edges.
 */
export function downsample(
  points: readonly PulsePoint[],
  stepMs: number,
  resolutionMs: number,
  aggregator: PulseAggregator,
): Buckets {
  // A period no longer than the resolution: one point a bucket, no weighing to do (a 7-day minute
  // query is 10,080 points; the general path's per-bucket objects were most of its time).
  if (stepMs === resolutionMs) return samePeriod(points, stepMs, aggregator);
  const sums = new Map<number, { sum: number; weight: number }>();
  const add = (bucket: number, value: number, weight: number) => {
    const s = sums.get(bucket);
    if (s) {
      s.sum += value * weight;
      s.weight += weight;
    } else sums.set(bucket, { sum: value * weight, weight });
  };
  for (let i = 0; i < points.length; i++) {
    const [ms, value] = points[i]!;
    if (aggregator === 'savg') {
      add(Math.floor(ms / stepMs) * stepMs, value, 1);
      continue;
    }
    const end = Math.min(points[i + 1]?.[0] ?? ms + resolutionMs, ms + TAVG_HOLD_STEPS * resolutionMs);
    for (let t = ms; t < end;) {
      const bucket = Math.floor(t / stepMs) * stepMs;
      const until = Math.min(end, bucket + stepMs);
      add(bucket, value, until - t);
      t = until;
    }
  }
  const out: Buckets = new Map();
  for (const [bucket, s] of sums) out.set(bucket, s.sum / s.weight);
  return out;
}

function samePeriod(points: readonly PulsePoint[], stepMs: number, aggregator: PulseAggregator): Buckets {
  const out: Buckets = new Map();
  for (let i = 0; i < points.length; i++) {
    const [ms, value] = points[i]!;
    out.set(ms, value);
    if (aggregator === 'savg') continue;
    // tavg8: the value holds over the empty buckets up to the next point, at most 8 steps.
    const end = Math.min(points[i + 1]?.[0] ?? ms + stepMs, ms + TAVG_HOLD_STEPS * stepMs);
    for (let t = ms + stepMs; t < end; t += stepMs) out.set(t, value);
  }
  return out;
}

/** One series from several: at each bucket, the max, min or sum of the series that have a value. */
export function combine(all: readonly Buckets[], group: PulseGroup): Buckets {
  if (all.length === 1) return all[0]!;
  const out: Buckets = new Map();
  for (const buckets of all)
    for (const [bucket, value] of buckets) {
      const seen = out.get(bucket);
      if (seen === undefined) out.set(bucket, value);
      else if (group === 'sum') out.set(bucket, seen + value);
      else if (group === 'max') out.set(bucket, Math.max(seen, value));
      else out.set(bucket, Math.min(seen, value));
    }
  return out;
}

/** Buckets in time order, with null where a bucket between two measured ones has nothing (a gap). */
function toPoints(buckets: Buckets, stepMs: number): [number, number | null][] {
  const times = [...buckets.keys()].sort((a, b) => a - b);
  const out: [number, number | null][] = [];
  for (const [i, ms] of times.entries()) {
    const previous = times[i - 1];
    if (previous !== undefined && ms - previous > stepMs) out.push([previous + stepMs, null]);
    out.push([ms, round(buckets.get(ms)!)]);
  }
  return out;
}

/** Float32 storage carries ~7 digits: more would only be noise on the wire. */
const round = (value: number): number => (Number.isInteger(value) ? value : Number(value.toPrecision(7)));
