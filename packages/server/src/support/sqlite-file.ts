import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** A database that lives in memory only (tests, and stores asked for no file). */
export const IN_MEMORY_DB = ':memory:';

export interface SqliteFileOptions {
  /** Pages freed by pruning can be given back; only a new file takes it (set before its first table). */
  incrementalVacuum?: boolean;
  /** How long a write waits for another writer's lock before it fails (ms). */
  busyTimeoutMs?: number;
  /**
   * FULL: a committed write survives a power cut. NORMAL (the default): a crash can lose the last
   * writes, never corrupt the file — right for counts, metrics and logs written all the time.
   */
  synchronous?: 'NORMAL' | 'FULL';
}

/**
 * Opens one of the server's SQLite files the way they all are: its folder made (owner only), WAL,
 * the WAL cut back to 4 MiB after a checkpoint, then `schema` run. The file is closed again when
 * any of that fails, and the error thrown.
 */
export function openSqliteFile(
  path: string,
  schema: string,
  options: SqliteFileOptions = {},
): Database.Database {
  if (path !== IN_MEMORY_DB) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(
    path,
    options.busyTimeoutMs === undefined ? {} : { timeout: options.busyTimeoutMs },
  );
  try {
    if (options.incrementalVacuum) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('journal_size_limit = 4194304');
    db.exec(schema);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
