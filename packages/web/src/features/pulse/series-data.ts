import type { PulseMetricKind } from '@sluice/api';
import { scaleValue, seriesLabel, tagsKey } from './board.js';
import type { PulseAnswerSeries } from '@sluice/api';

/** A series with the query it answers. */
export interface QuerySeries extends PulseAnswerSeries {
  query: string;
}

export const withQuery = (query: string, series: PulseAnswerSeries[]): QuerySeries[] =>
  series.map((s) => ({ ...s, query }));

/**
 * The last-minute panel's series after one topic message: its points newer than what the series
 * holds are appended (the first message, and the first after a reconnect, carry the whole last
 * minute); points older than `spanMs` before the newest one fall off.
 */
export function mergeLive(
  old: QuerySeries[],
  query: string,
  update: PulseAnswerSeries[],
  spanMs: number,
): QuerySeries[] {
  const others = old.filter((s) => s.query !== query);
  const mine = new Map(old.filter((s) => s.query === query).map((s) => [tagsKey(s.tags), s]));
  for (const u of update) {
    const key = tagsKey(u.tags);
    const had = mine.get(key);
    const last = had?.points[had.points.length - 1]?.[0] ?? -Infinity;
    const points = [...(had?.points ?? []), ...u.points.filter(([t]) => t > last)];
    mine.set(key, { query, tags: u.tags, points });
  }
  const merged = [...others, ...mine.values()];
  const newest = Math.max(...merged.flatMap((s) => s.points.map(([t]) => t)));
  return merged.map((s) => ({ ...s, points: s.points.filter(([t]) => t > newest - spanMs) }));
}

export interface PlotData {
  labels: string[];
  /** Times in seconds, then one row of drawn values per series (null: a gap). */
  data: [number[], ...(number | null)[][]];
  /** Points with a value, over all series: what the operator sees grow. */
  points: number;
}

/** uPlot's aligned data: the union of the series' times, each series' values at them. */
export function toPlotData(series: QuerySeries[], kind: PulseMetricKind, single: boolean): PlotData {
  const times = [...new Set(series.flatMap((s) => s.points.map(([t]) => t)))].sort((a, b) => a - b);
  let points = 0;
  const rows = series.map((s) => {
    const byTime = new Map(s.points);
    return times.map((t) => {
      const v = byTime.get(t);
      if (v === undefined || v === null) return null;
      points++;
      return scaleValue(kind, v);
    });
  });
  return {
    labels: series.map((s) => seriesLabel(s.query, s.tags, single)),
    data: [times.map((t) => t / 1000), ...rows],
    points,
  };
}

/** The newest value of a series, if any: the partition panel's title shows it. */
export function latestValue(series: QuerySeries[]): number | undefined {
  for (const s of series) {
    for (let i = s.points.length - 1; i >= 0; i--) {
      const v = s.points[i]?.[1];
      if (v !== null && v !== undefined) return v;
    }
  }
  return undefined;
}

/** Series of a split graph (per disk, per partition) grouped by their tags, in a stable order. */
export function splitByTags(series: QuerySeries[]): { key: string; series: QuerySeries[] }[] {
  const groups = new Map<string, QuerySeries[]>();
  for (const s of series) {
    const key = tagsKey(s.tags);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, g]) => ({ key, series: g }));
}

/**
 * The last-hours series with the live seconds the range call has not answered yet folded in: each
 * `stepMs` bucket after a series' last stored point gets the mean of its live points so far, so the
 * panel grows each second instead of once a minute (a fresh server's store has no minute yet).
 */
export function extendWithLive(
  hours: QuerySeries[],
  live: QuerySeries[] | undefined,
  stepMs: number,
): QuerySeries[] {
  if (!live || live.length === 0 || stepMs <= 0) return hours;
  const out = new Map(hours.map((s) => [`${s.query}\n${tagsKey(s.tags)}`, s]));
  for (const s of live) {
    const key = `${s.query}\n${tagsKey(s.tags)}`;
    const stored = out.get(key);
    const last = stored?.points[stored.points.length - 1]?.[0] ?? -Infinity;
    const buckets = new Map<number, { sum: number; count: number }>();
    for (const [t, v] of s.points) {
      const start = Math.floor(t / stepMs) * stepMs;
      if (v === null || start <= last) continue;
      const b = buckets.get(start) ?? { sum: 0, count: 0 };
      b.sum += v;
      b.count++;
      buckets.set(start, b);
    }
    if (buckets.size === 0) continue;
    const added: [number, number][] = [...buckets.entries()]
      .sort(([a], [b]) => a - b)
      .map(([start, b]) => [start, b.sum / b.count]);
    out.set(key, { query: s.query, tags: s.tags, points: [...(stored?.points ?? []), ...added] });
  }
  return [...out.values()];
}
