/** A series' identity: `metric{k=v,…}`, tags sorted by key. */
export function seriesKey(metric: string, tags: Record<string, string>): string {
  const keys = Object.keys(tags);
  // The common shapes (no tag, one tag) without sorting: this runs 3,000 times a second at 1,000 streams.
  if (keys.length === 0) return `${metric}{}`;
  if (keys.length === 1) return `${metric}{${keys[0]}=${tags[keys[0]!]}}`;
  return `${metric}{${keys
    .sort()
    .map((k) => `${k}=${tags[k]}`)
    .join(',')}}`;
}
