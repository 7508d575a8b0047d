import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openSqliteFile } from '../support/sqlite-file.js';

/** GET /flussonic/api/ad_streams: stream name → its ad files with their counts (spec 002 §3, §7). */
export type AdStreamStats = Record<string, { name: string; show_count: number; view_count: number }[]>;

/** The database file in the server's data folder (beside the config). */
export const AD_STATS_FILE = 'ad-stats.sqlite3';
/**
 * A session key not seen for this long is forgotten (its row deleted): a client session ends after
 * far less idle time (delivery/client-sessions.ts), so a forgotten key can't come back and be
 * counted twice; the view_count itself is a stored number and never goes down.
 */
export const AD_VIEW_KEY_TTL_MS = 24 * 3600_000;
/** A key's last-seen time is written at most this often (not on every segment it fetches). */
const TOUCH_EVERY_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Longest stream or file name stored (characters): names come from the config, this only bounds. */
const NAME_LIMIT = 1024;

/**
 * Show and view counts of ad files per stream, in SQLite (WAL) so they survive restarts.
 * show_count: how many times a file was inserted into a stream (recordShow). view_count: how many
 * distinct sessions fetched its media in that stream (recordView), exact: each (stream, file, key)
 * is a row (the key hashed: a fixed 16 bytes however long the token), the count goes up only when
 * the row is new; rows idle past AD_VIEW_KEY_TTL_MS are pruned, the count stays.
 */
export class AdStats {
  private readonly db: Database.Database;
  private readonly addShow: Database.Statement;
  private readonly addView: Database.Statement;
  private readonly addKey: Database.Statement;
  private readonly touchKey: Database.Statement;
  private readonly pruneKeys: Database.Statement;
  private readonly readAll: Database.Statement;
  /** Keys seen in this run → when their row was last written (bounded by the same pruning). */
  private readonly seen = new Map<string, number>();
  private readonly pruner: NodeJS.Timeout;
  private closed = false;

  /** `path`: the database file (its folder is made), or ':memory:'. */
  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
    /** Where a failed write is told (once a minute at most): counting never breaks playback. */
    private readonly log: (line: string) => void = () => undefined,
  ) {
    // WAL, NORMAL sync: a crash can lose the last counts written, never corrupt the file.
    this.db = openSqliteFile(
      path,
      `
      CREATE TABLE IF NOT EXISTS ad_counts (
        stream TEXT NOT NULL,
        file TEXT NOT NULL,
        show_count INTEGER NOT NULL DEFAULT 0,
        view_count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (stream, file)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS ad_view_keys (
        stream TEXT NOT NULL,
        file TEXT NOT NULL,
        key BLOB NOT NULL,
        last_ms INTEGER NOT NULL,
        PRIMARY KEY (stream, file, key)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS ad_view_keys_by_time ON ad_view_keys (last_ms);
    `,
      { busyTimeoutMs: 2000 },
    );
    this.addShow = this.db.prepare(
      `INSERT INTO ad_counts (stream, file, show_count) VALUES (?, ?, 1)
       ON CONFLICT (stream, file) DO UPDATE SET show_count = show_count + 1`,
    );
    this.addView = this.db.prepare(
      `INSERT INTO ad_counts (stream, file, view_count) VALUES (?, ?, 1)
       ON CONFLICT (stream, file) DO UPDATE SET view_count = view_count + 1`,
    );
    this.addKey = this.db.prepare(
      'INSERT OR IGNORE INTO ad_view_keys (stream, file, key, last_ms) VALUES (?, ?, ?, ?)',
    );
    this.touchKey = this.db.prepare(
      'UPDATE ad_view_keys SET last_ms = ? WHERE stream = ? AND file = ? AND key = ?',
    );
    this.pruneKeys = this.db.prepare('DELETE FROM ad_view_keys WHERE last_ms < ?');
    this.readAll = this.db.prepare(
      'SELECT stream, file, show_count, view_count FROM ad_counts ORDER BY stream, file',
    );
    this.prune();
    this.pruner = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  /** The file was inserted into the stream once more. */
  recordShow(stream: string, file: string): void {
    if (this.closed) return;
    this.guard(() => this.addShow.run(cut(stream), cut(file)));
  }

  /** A session fetched the file's media in the stream: counted once per distinct session key. */
  recordView(stream: string, file: string, sessionKey: string): void {
    if (this.closed) return;
    const [s, f] = [cut(stream), cut(file)];
    const key = createHash('sha256').update(sessionKey).digest().subarray(0, 16);
    const memo = `${s}\0${f}\0${key.toString('base64')}`;
    const now = this.now();
    const written = this.seen.get(memo);
    if (written !== undefined && now - written < TOUCH_EVERY_MS) return;
    this.guard(() => {
      if (written !== undefined) this.touchKey.run(now, s, f, key);
      else
        this.db.transaction(() => {
          // A key of an earlier run (or pruned from `seen`) is still a row: touched, not counted again.
          if (this.addKey.run(s, f, key, now).changes === 1) this.addView.run(s, f);
          else this.touchKey.run(now, s, f, key);
        })();
      this.seen.set(memo, now);
    });
  }

  /** Failed writes since the start (a full disk, a locked file): the count misses them. */
  failures = 0;
  private lastFailureLogMs = -Infinity;

  private guard(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.failures++;
      const now = this.now();
      if (now - this.lastFailureLogMs < 60_000) return;
      this.lastFailureLogMs = now;
      this.log(
        `ad counts can't be written to ${this.path} (${this.failures} failed so far): ${(error as Error).message}`,
      );
    }
  }

  snapshot(): AdStreamStats {
    const out: AdStreamStats = {};
    if (this.closed) return out;
    const rows = this.readAll.all() as {
      stream: string;
      file: string;
      show_count: number;
      view_count: number;
    }[];
    for (const row of rows)
      (out[row.stream] ??= []).push({
        name: row.file,
        show_count: row.show_count,
        view_count: row.view_count,
      });
    return out;
  }

  /** Forgets keys idle past the TTL (rows and memo); how many rows went. */
  prune(): number {
    if (this.closed) return 0;
    const before = this.now() - AD_VIEW_KEY_TTL_MS;
    for (const [memo, at] of this.seen) if (at < before) this.seen.delete(memo);
    return this.pruneKeys.run(before).changes;
  }

  /** How many session keys are held (the bound the pruning keeps). */
  keyCount(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM ad_view_keys').get() as { n: number }).n;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pruner);
    this.db.close();
  }
}

function cut(value: string): string {
  return value.length > NAME_LIMIT ? value.slice(0, NAME_LIMIT) : value;
}
