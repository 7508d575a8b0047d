export type PulseSeries = { label: string; points: [number, number][] }[];

/**
 * Whether the pulse has anything to show: the graph appears only then (spec 001 §2). The server
 * sends a clients point for every minute of the range, zeros included, so a range in which nothing
 * played and nothing came in has no data worth a graph.
 */
export const hasPulseData = (series: PulseSeries | undefined): series is PulseSeries =>
  series?.some((s) => s.points.some(([, value]) => value !== 0)) === true;
