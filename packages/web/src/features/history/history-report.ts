import type { HistorySession, ReportRow } from '@sluice/api';

/** The sessions of the streams published into a location: named `{prefix}/…`. */
export const locationSessions = (sessions: readonly HistorySession[], prefix: string): HistorySession[] =>
  sessions.filter((s) => s.name.startsWith(`${prefix}/`));

/**
 * The report of spec 001 §3 "Report row" from a list of sessions, one row per protocol and
 * country, in that order. The server's group=type does this for one stream; a location's streams
 * are several, so its History tab sums their sessions here.
 */
export function sessionsReport(sessions: readonly HistorySession[]): ReportRow[] {
  const groups = new Map<string, ReportRow>();
  for (const s of sessions) {
    const key = `${s.type}\u0000${s.country}`;
    const row = groups.get(key) ?? {
      type: s.type,
      country: s.country,
      avg_duration: 0,
      total_duration: 0,
      avg_bytes: 0,
      total_bytes: 0,
      count: 0,
    };
    row.count += 1;
    row.total_duration += s.duration;
    row.total_bytes += s.bytes_sent;
    row.avg_duration = row.total_duration / row.count;
    row.avg_bytes = row.total_bytes / row.count;
    groups.set(key, row);
  }
  return [...groups.values()].sort(
    (a, b) => a.type.localeCompare(b.type) || a.country.localeCompare(b.country),
  );
}
