import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { RESOLUTIONS, blockSpanMs } from './pulse-resolutions.js';

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
  data: Buffer;
}

/** In memory: where collection goes on when the pulsedb file can't be opened or written. */
export const IN_MEMORY = ':memory:';

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
    if (path !== IN_MEMORY) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.db = new Database(path);
    try {
      // Only a new file takes it (before its first table): pruned pages can then be given back.
      this.db.pragma('auto_vacuum = INCREMENTAL');
      this.db.pragma('journal_mode = WAL');
      // A crash can lose the last batch written, never corrupt the store.
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('journal_size_limit = 4194304');
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS series (
          id INTEGER PRIMARY KEY,
          metric TEXT NOT NULL,
          tags TEXT NOT NULL,
          UNIQUE (metric, tags)
        );
        CREATE TABLE IF NOT EXISTS blocks (
          series INTEGER NOT NULL,
          res INTEGER NOT NULL,
          start_ms INTEGER NOT NULL,
          data BLOB NOT NULL,
          PRIMARY KEY (series, res, start_ms)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS blocks_by_age ON blocks (res, start_ms);
      `);
      this.upsert = this.db.prepare(
        `INSERT INTO blocks (series, res, start_ms, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (series, res, start_ms) DO UPDATE SET data = excluded.data`,
      );
      this.addSeries = this.db.prepare('INSERT OR IGNORE INTO series (id, metric, tags) VALUES (?, ?, ?)');
      this.readBlocks = this.db.prepare(
        'SELECT start_ms AS startMs, data FROM blocks WHERE series = ? AND res = ? AND start_ms > ? AND start_ms <= ? ORDER BY start_ms',
      );
      this.readBlock = this.db.prepare(
        'SELECT data FROM blocks WHERE series = ? AND res = ? AND start_ms = ?',
      );
      this.prunes = RESOLUTIONS.map(() =>
        this.db.prepare('DELETE FROM blocks WHERE res = ? AND start_ms < ?'),
      );
      this.dropEmptySeries = this.db.prepare(
        'DELETE FROM series WHERE NOT EXISTS (SELECT 1 FROM blocks WHERE blocks.series = series.id)',
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
      for (const b of blocks) this.upsert.run(b.series, b.level, b.startMs, b.data);
    })();
  }

  /** Blocks of a series at a level that hold some of (fromMs, toMs]. */
  blocks(series: number, level: number, fromMs: number, toMs: number): BlockRow[] {
    const span = blockSpanMs(RESOLUTIONS[level as 0 | 1 | 2]);
    return this.readBlocks.all(series, level, fromMs - span, toMs) as BlockRow[];
  }

  block(series: number, level: number, startMs: number): Buffer | undefined {
    return (this.readBlock.get(series, level, startMs) as { data: Buffer } | undefined)?.data;
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

  /** Series with no block left: their ids are free to be forgotten (called by the store, rarely). */
  forgetEmptySeries(): number {
    const changes = this.dropEmptySeries.run().changes;
    // Frees the pages pruning emptied, a few at a time, so the file shrinks back to its bound.
    this.db.pragma('incremental_vacuum(256)');
    return changes;
  }

  counts(): { series: number; blocks: number } {
    const series = (this.db.prepare('SELECT count(*) AS n FROM series').get() as { n: number }).n;
    const blocks = (this.db.prepare('SELECT count(*) AS n FROM blocks').get() as { n: number }).n;
    return { series, blocks };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
