import type Database from 'better-sqlite3';
import { IN_MEMORY_DB, openSqliteFile } from '../support/sqlite-file.js';
import { RESOLUTIONS, blockSpanMs, blockStart } from './pulse-resolutions.js';

export interface SeriesRow {
  id: number;
  metric: string;
  tags: Record<string, string>;
}

export interface BlockWrite {
  series: number;
  level: number;
  startMs: number;
  data: Buffer;
}

export interface BlockRow {
  startMs: number;
  series: number;
  data: Buffer;
}

/** In memory: where collection goes on when the pulsedb file can't be opened or written. */
export const IN_MEMORY = IN_MEMORY_DB;

/**
 * The Pulse store's SQLite file (better-sqlite3, WAL): the series (metric + tags) and their blocks
 * of values (pulse-resolutions.ts). All writes go through `write`, one transaction each.
 */
export class PulseDb {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly addSeries: Database.Statement;
  private readonly readBlocks: Database.Statement;
  private readonly readBlock: Database.Statement;
  private readonly prunes: Database.Statement[];
  private readonly dropEmptySeries: Database.Statement;

  constructor(readonly path: string) {
    // Pruned pages can be given back (incremental vacuum); a crash loses the last batch, never the store.
    this.db = openSqliteFile(
      path,
      `
        CREATE TABLE IF NOT EXISTS series (
          id INTEGER PRIMARY KEY,
          metric TEXT NOT NULL,
          tags TEXT NOT NULL,
          UNIQUE (metric, tags)
        );
        CREATE TABLE IF NOT EXISTS pulse_blocks (
          res INTEGER NOT NULL,
          start_ms INTEGER NOT NULL,
          series INTEGER NOT NULL,
          data BLOB NOT NULL,
          PRIMARY KEY (res, start_ms, series)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS pulse_blocks_of_series ON pulse_blocks (series) WHERE res = 2;
      `,
      { incrementalVacuum: true },
    );
    try {
      // Reads through the OS page cache without a syscall a page: a 7-day range of 100 streams is
      // ~5 MB of pages, more than SQLite's own cache keeps. Address space, not memory.
      this.db.pragma('mmap_size = 1073741824');
      migrateSeriesFirst(this.db);
      this.upsert = this.db.prepare(
        'INSERT OR REPLACE INTO pulse_blocks (res, start_ms, series, data) VALUES (?, ?, ?, ?)',
      );
      this.addSeries = this.db.prepare('INSERT OR IGNORE INTO series (id, metric, tags) VALUES (?, ?, ?)');
      // Every (block start, series) pair asked for is a seek on the primary key: one statement
      // reads a range of many series without scanning the series that are not asked for.
      this.readBlocks = this.db
        .prepare(
          `SELECT start_ms, series, data FROM pulse_blocks WHERE res = ?
           AND start_ms IN (SELECT value FROM json_each(?)) AND series IN (SELECT value FROM json_each(?))`,
        )
        .raw();
      this.readBlock = this.db.prepare(
        'SELECT data FROM pulse_blocks WHERE res = ? AND start_ms = ? AND series = ?',
      );
      this.prunes = RESOLUTIONS.map(() =>
        this.db.prepare('DELETE FROM pulse_blocks WHERE res = ? AND start_ms < ?'),
      );
      // Hour blocks are the last to go (a year), and every value recorded reaches one (the minute
      // and hour means are handed up when a series is settled): a series without one has nothing left.
      this.dropEmptySeries = this.db.prepare(
        `DELETE FROM series WHERE id NOT IN (SELECT value FROM json_each(?))
         AND NOT EXISTS (SELECT 1 FROM pulse_blocks WHERE res = 2 AND pulse_blocks.series = series.id)`,
      );
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  allSeries(): SeriesRow[] {
    const rows = this.db.prepare('SELECT id, metric, tags FROM series').all() as {
      id: number;
      metric: string;
      tags: string;
    }[];
    return rows.map((r) => ({
      id: r.id,
      metric: r.metric,
      tags: JSON.parse(r.tags) as Record<string, string>,
    }));
  }

  /** One transaction: new series, then blocks (a block written again replaces its earlier copy). */
  write(series: readonly SeriesRow[], blocks: readonly BlockWrite[]): void {
    this.db.transaction(() => {
      for (const s of series) this.addSeries.run(s.id, s.metric, JSON.stringify(s.tags));
      for (const b of blocks) this.upsert.run(b.level, b.startMs, b.series, b.data);
    })();
  }

  /** Blocks of these series at a level that hold some of [fromMs, toMs], in one statement. */
  blocks(series: readonly number[], level: number, fromMs: number, toMs: number): BlockRow[] {
    const r = RESOLUTIONS[level as 0 | 1 | 2];
    const span = blockSpanMs(r);
    const starts: number[] = [];
    for (let start = blockStart(r, fromMs); start <= toMs; start += span) starts.push(start);
    if (starts.length === 0 || series.length === 0) return [];
    const rows = this.readBlocks.all(level, JSON.stringify(starts), JSON.stringify(series)) as [
      number,
      number,
      Buffer,
    ][];
    return rows.map(([startMs, id, data]) => ({ startMs, series: id, data }));
  }

  block(series: number, level: number, startMs: number): Buffer | undefined {
    return (this.readBlock.get(level, startMs, series) as { data: Buffer } | undefined)?.data;
  }

  /**
   * Deletes the blocks that ended before each resolution's window, then the series left without any
   * (`keep` says which live series to spare); returns the blocks deleted.
   */
  prune(nowMs: number): number {
    let deleted = 0;
    this.db.transaction(() => {
      RESOLUTIONS.forEach((r, i) => {
        deleted += this.prunes[i]!.run(r.level, nowMs - r.keepMs - blockSpanMs(r)).changes;
      });
    })();
    return deleted;
  }

  /**
   * Series with no block left, other than `live` ones (their first hour is not written yet): their
   * ids are free to be forgotten (called by the store, rarely).
   */
  forgetEmptySeries(live: readonly number[]): number {
    const changes = this.dropEmptySeries.run(JSON.stringify(live)).changes;
    // Frees the pages pruning emptied, a few at a time, so the file shrinks back to its bound.
    this.db.pragma('incremental_vacuum(256)');
    return changes;
  }

  counts(): { series: number; blocks: number } {
    const series = (this.db.prepare('SELECT count(*) AS n FROM series').get() as { n: number }).n;
    const blocks = (this.db.prepare('SELECT count(*) AS n FROM pulse_blocks').get() as { n: number }).n;
    return { series, blocks };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Stores made before the blocks were ordered by time (`blocks`, keyed series first, minutes by the
 * hour) are copied over once. Keyed by time, the blocks rewritten at each flush (every series' open
 * ones) lie side by side in a few pages instead of one page each (3,000 series touched ~3,000 pages
 * a flush); an hour of minutes goes into its day's block.
 */
function migrateSeriesFirst(db: Database.Database): void {
  const old = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blocks'").get();
  if (!old) return;
  const minutes = RESOLUTIONS[1];
  db.transaction(() => {
    db.exec(`INSERT OR REPLACE INTO pulse_blocks (res, start_ms, series, data)
             SELECT res, start_ms, series, data FROM blocks WHERE res <> 1`);
    const days = new Map<string, { series: number; startMs: number; values: Float32Array }>();
    const hours = db.prepare('SELECT series, start_ms AS startMs, data FROM blocks WHERE res = 1').all() as {
      series: number;
      startMs: number;
      data: Buffer;
    }[];
    for (const h of hours) {
      const startMs = blockStart(minutes, h.startMs);
      const key = `${h.series}:${startMs}`;
      let day = days.get(key);
      if (!day) {
        day = { series: h.series, startMs, values: new Float32Array(minutes.blockLength).fill(NaN) };
        days.set(key, day);
      }
      const at = (h.startMs - startMs) / minutes.stepMs;
      for (let i = 0; i < h.data.length >> 2 && at + i < day.values.length; i++)
        day.values[at + i] = h.data.readFloatLE(i * 4);
    }
    const put = db.prepare(
      'INSERT OR REPLACE INTO pulse_blocks (res, start_ms, series, data) VALUES (1, ?, ?, ?)',
    );
    for (const day of days.values()) put.run(day.startMs, day.series, Buffer.from(day.values.buffer));
    db.exec('DROP TABLE blocks');
  })();
}
