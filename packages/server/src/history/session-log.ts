import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { HistorySession, HistorySortField, ReportRow } from '@sluice/api';
import { openSqliteFile } from '../support/sqlite-file.js';
import { pruneSessions, SESSION_RETENTION_DEFAULTS, type SessionRetention } from './session-retention.js';

/** The database file inside the session_log folder. */
export const SESSION_LOG_FILE = 'sessions.sqlite3';
/** A history answer holds at most this many sessions (newest first unless sorted otherwise). */
export const HISTORY_LIMIT = 1000;
/**
 * The longest text kept per field (characters; docs/api.md): a viewer chooses its token and user
 * agent, and without a cap 2,000 requests with 4 KB of each made a 19 MB log.
 */
export const FIELD_LIMITS = {
  id: 64,
  name: 512,
  type: 16,
  ip: 64,
  country: 8,
  userId: 256,
  token: 256,
  userAgent: 512,
} as const;
/** Retention is applied this often (and as the log opens), never per write. */
export const PRUNE_INTERVAL_MS = 60_000;

export interface SessionRecord {
  id: string;
  name: string;
  type: string;
  ip: string;
  country: string;
  createdAt: number;
  deletedAt: number;
  bytesSent: number;
  userId: string | undefined;
  token: string | undefined;
  userAgent: string;
}

export interface SessionQuery {
  name?: string;
  /** Streams named `{prefix}/…` (a location's). */
  prefix?: string;
  /** Sessions that were open at some moment of [from, to] (ms). */
  from?: number;
  to?: number;
  sort?: HistorySortField;
  sortDir?: 'asc' | 'desc';
}

interface Row {
  id: string;
  name: string;
  type: string;
  ip: string;
  country: string;
  created_at: number;
  deleted_at: number;
  bytes_sent: number;
  user_id: string | null;
  token: string | null;
  user_agent: string | null;
}

/**
 * Every closed play session, in SQLite (WAL) under the global `session_log` folder: what the
 * History tab reads. One row a session, written when the session ends; its text fields cut to
 * FIELD_LIMITS, the oldest rows deleted past the retention limits (session-retention.ts).
 */
export class SessionLog {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly pruner: NodeJS.Timeout;

  constructor(
    readonly folder: string,
    private retention: SessionRetention = SESSION_RETENTION_DEFAULTS,
  ) {
    // Freed pages can be given back; a crash can lose the last sessions written, never corrupt the log.
    this.db = openSqliteFile(
      join(folder, SESSION_LOG_FILE),
      `
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        ip TEXT NOT NULL,
        country TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        deleted_at INTEGER NOT NULL,
        bytes_sent INTEGER NOT NULL,
        user_id TEXT,
        token TEXT,
        user_agent TEXT
      );
      CREATE INDEX IF NOT EXISTS sessions_by_name ON sessions (name, created_at);
      CREATE INDEX IF NOT EXISTS sessions_by_time ON sessions (created_at);
    `,
      { incrementalVacuum: true },
    );
    this.insert = this.db.prepare(
      `INSERT OR REPLACE INTO sessions
         (id, name, type, ip, country, created_at, deleted_at, bytes_sent, user_id, token, user_agent)
       VALUES (@id, @name, @type, @ip, @country, @created_at, @deleted_at, @bytes_sent, @user_id, @token, @user_agent)`,
    );
    this.prune(Date.now());
    this.pruner = setInterval(() => this.prune(Date.now()), PRUNE_INTERVAL_MS);
    this.pruner.unref();
  }

  /** New limits (the config changed): applied at the next prune. */
  retain(retention: SessionRetention): void {
    this.retention = retention;
  }

  /** Applies retention now; how many sessions were deleted. */
  prune(nowMs: number): number {
    return pruneSessions(this.db, this.retention, nowMs);
  }

  write(record: SessionRecord): void {
    const cut = (value: string, limit: number) => truncate(value, limit);
    this.insert.run({
      id: cut(record.id, FIELD_LIMITS.id),
      name: cut(record.name, FIELD_LIMITS.name),
      type: cut(record.type, FIELD_LIMITS.type),
      ip: cut(record.ip, FIELD_LIMITS.ip),
      country: cut(record.country, FIELD_LIMITS.country),
      created_at: record.createdAt,
      deleted_at: record.deletedAt,
      bytes_sent: record.bytesSent,
      user_id: record.userId === undefined ? null : cut(record.userId, FIELD_LIMITS.userId),
      token: record.token === undefined ? null : cut(record.token, FIELD_LIMITS.token),
      user_agent: cut(record.userAgent, FIELD_LIMITS.userAgent) || null,
    });
  }

  sessions(query: SessionQuery): HistorySession[] {
    const { where, params } = whereOf(query);
    // The sort field is one of HISTORY_SORT_FIELDS (checked by the caller): safe in the SQL text.
    const order = query.sort === 'duration' ? '(deleted_at - created_at)' : (query.sort ?? 'created_at');
    const dir = (query.sortDir ?? (query.sort ? 'asc' : 'desc')).toUpperCase();
    const rows = this.db
      .prepare(`SELECT * FROM sessions ${where} ORDER BY ${order} ${dir}, id LIMIT ${HISTORY_LIMIT}`)
      .all(params) as Row[];
    return rows.map(toHistory);
  }

  /** Sessions grouped by protocol and country (the report of the History tab). */
  report(query: SessionQuery): ReportRow[] {
    const { where, params } = whereOf(query);
    const rows = this.db
      .prepare(
        `SELECT type, country, COUNT(*) AS count,
           SUM(deleted_at - created_at) AS total_duration, SUM(bytes_sent) AS total_bytes
         FROM sessions ${where} GROUP BY type, country ORDER BY type, country`,
      )
      .all(params) as {
      type: string;
      country: string;
      count: number;
      total_duration: number;
      total_bytes: number;
    }[];
    return rows.map((r) => ({
      type: r.type,
      country: r.country,
      count: r.count,
      total_duration: r.total_duration,
      avg_duration: Math.round(r.total_duration / r.count),
      total_bytes: r.total_bytes,
      avg_bytes: Math.round(r.total_bytes / r.count),
    }));
  }

  /** [created_at, deleted_at] of every logged session of `name` open during [from, to]. */
  spans(name: string, from: number, to: number): [number, number][] {
    const rows = this.db
      .prepare(
        'SELECT created_at, deleted_at FROM sessions WHERE name = ? AND created_at <= ? AND deleted_at >= ?',
      )
      .raw()
      .all(name, to, from) as [number, number][];
    return rows;
  }

  close(): void {
    clearInterval(this.pruner);
    this.db.close();
  }
}

/** At most `limit` characters, never half of a surrogate pair. */
export function truncate(value: string, limit: number): string {
  if (value.length <= limit) return value;
  const cut = value.slice(0, limit);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function whereOf(query: SessionQuery): { where: string; params: Record<string, unknown> } {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  if (query.name !== undefined) {
    clauses.push('name = @name');
    params.name = query.name;
  }
  if (query.prefix !== undefined) {
    // '/' + 1 is '0': the names from "p/" up to, not including, "p0" are exactly those under "p/".
    clauses.push('name >= @lo AND name < @hi');
    params.lo = `${query.prefix}/`;
    params.hi = `${query.prefix}0`;
  }
  if (query.to !== undefined) {
    clauses.push('created_at <= @to');
    params.to = query.to;
  }
  if (query.from !== undefined) {
    clauses.push('deleted_at >= @from');
    params.from = query.from;
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function toHistory(r: Row): HistorySession {
  return {
    id: r.id,
    type: r.type,
    ip: r.ip,
    country: r.country,
    created_at: r.created_at,
    deleted_at: r.deleted_at,
    duration: r.deleted_at - r.created_at,
    bytes_sent: r.bytes_sent,
    user_id: r.user_id,
    token: r.token,
    user_agent: r.user_agent,
    name: r.name,
  };
}
