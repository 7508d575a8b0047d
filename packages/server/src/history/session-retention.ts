import type Database from 'better-sqlite3';

/** How much of the session log is kept (config session_log_days, session_log_max_mb). */
export interface SessionRetention {
  /** Sessions that started longer ago than this are deleted. */
  maxAgeDays: number;
  /** Past this many bytes of data the oldest sessions are deleted. */
  maxBytes: number;
}

/** The defaults docs/config.md states: three months, 256 MB. */
export const SESSION_RETENTION_DEFAULTS: SessionRetention = { maxAgeDays: 90, maxBytes: 256 * 1024 * 1024 };
/** Rows deleted by one statement: each is its own short transaction, so writers are not held up. */
const BATCH_ROWS = 2000;
/** Batches one prune runs at most; the rest waits for the next one (a first prune of a huge log). */
const MAX_BATCHES = 25;
/** Over the size cap, the log is cut to this share of it, so a prune is not due at every write. */
const SIZE_TARGET = 0.9;
const DAY_MS = 86_400_000;

/** Bytes in use by the database: its pages minus the free ones (a delete frees pages for reuse). */
export function usedBytes(db: Database.Database): number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return (pages - free) * pageSize;
}

/**
 * Deletes what retention no longer keeps, oldest first, in batches: sessions older than the age
 * limit, then the oldest ones while the data is over the size limit. Returns how many went. Freed
 * pages are given back to the file system when the database was created with incremental vacuum.
 */
export function pruneSessions(db: Database.Database, retention: SessionRetention, nowMs: number): number {
  const byAge = db.prepare(
    'DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE created_at < ? LIMIT ?)',
  );
  const oldest = db.prepare(
    'DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions ORDER BY created_at LIMIT ?)',
  );
  let deleted = 0;
  let batches = 0;
  const cutoff = nowMs - retention.maxAgeDays * DAY_MS;
  while (batches++ < MAX_BATCHES) {
    const changes = byAge.run(cutoff, BATCH_ROWS).changes;
    deleted += changes;
    if (changes < BATCH_ROWS) break;
  }
  if (usedBytes(db) > retention.maxBytes) {
    const target = retention.maxBytes * SIZE_TARGET;
    const count = db.prepare('SELECT COUNT(*) FROM sessions').pluck();
    for (let used = usedBytes(db); used > target && batches++ < MAX_BATCHES; used = usedBytes(db)) {
      // The share of rows that is the share of bytes over the target, at least one.
      const rows = Math.ceil(((count.get() as number) * (used - target)) / used);
      const changes = oldest.run(Math.min(BATCH_ROWS, Math.max(1, rows))).changes;
      deleted += changes;
      if (changes === 0) break;
    }
  }
  if (deleted > 0) {
    db.pragma('incremental_vacuum');
    // The WAL holds the deleted pages until a checkpoint: truncated, so the files shrink too.
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
  return deleted;
}

/** The retention the config asks for (session_log_days, session_log_max_mb), defaults for what it leaves out. */
export function retentionOf(config: {
  session_log_days?: number;
  session_log_max_mb?: number;
}): SessionRetention {
  return {
    maxAgeDays: config.session_log_days ?? SESSION_RETENTION_DEFAULTS.maxAgeDays,
    maxBytes:
      config.session_log_max_mb !== undefined
        ? config.session_log_max_mb * 1024 * 1024
        : SESSION_RETENTION_DEFAULTS.maxBytes,
  };
}
