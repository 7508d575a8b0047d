import { z } from 'zod';
import { pulseSeries } from './events.js';

/**
 * The session log as the History tab reads it (spec 001 §3 "History session", "Report row", §7
 * history call). Timestamps and durations are milliseconds.
 */
export const historySession = z.object({
  id: z.string(),
  /** Protocol of the session: hls, mpegts, dash, rtmp … */
  type: z.string(),
  ip: z.string(),
  /** Two-letter country of the ip, '' when unknown (loopback, private ranges). */
  country: z.string(),
  created_at: z.number(),
  deleted_at: z.number(),
  duration: z.number(),
  bytes_sent: z.number(),
  user_id: z.string().nullable(),
  token: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The stream played. */
  name: z.string(),
});
export type HistorySession = z.infer<typeof historySession>;

/** One row of the report (`group=type`): the sessions of one protocol and country. */
export const reportRow = z.object({
  type: z.string(),
  country: z.string(),
  avg_duration: z.number(),
  total_duration: z.number(),
  avg_bytes: z.number(),
  total_bytes: z.number(),
  count: z.number(),
});
export type ReportRow = z.infer<typeof reportRow>;

/** Fields `sort` may name; the console's column names proto and bytes map to type and bytes_sent. */
export const HISTORY_SORT_FIELDS = [
  'type',
  'ip',
  'country',
  'created_at',
  'deleted_at',
  'duration',
  'bytes_sent',
  'user_id',
] as const;
export type HistorySortField = (typeof HISTORY_SORT_FIELDS)[number];

/** The sort field a History column asks for (spec 001 §7: proto → type, bytes → bytes_sent). */
export function historySortField(column: string): string {
  if (column === 'proto') return 'type';
  if (column === 'bytes') return 'bytes_sent';
  return column;
}

/** `GET /flussonic/api/history?media=NAME` */
export const historyResponse = z.object({ sessions: z.array(historySession) });
export type HistoryResponse = z.infer<typeof historyResponse>;

/**
 * `GET /flussonic/api/history?vsn=2&name=&from=&to=&pulse=true&sessions=true&sort=&sort_dir=&group=type`
 * (`prefix=PREFIX` instead of name: the streams of location PREFIX, named `PREFIX/…`).
 * sessions: the sessions that overlap [from, to] (ReportRow[] when group=type), present when
 * sessions=true; pulse: per-minute series over [from, to] when pulse=true — 'input' and 'output'
 * (kbit/s, as pulse.traffic) and 'clients' (sessions open during each minute).
 */
export const historyV2Response = z.object({
  sessions: z.union([z.array(historySession), z.array(reportRow)]).optional(),
  pulse: z.array(pulseSeries).optional(),
});
export type HistoryV2Response = z.infer<typeof historyV2Response>;
