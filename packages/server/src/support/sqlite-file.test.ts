import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteFile } from './sqlite-file.js';

describe('openSqliteFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the folder (owner only), opens in WAL with the sync asked for, and runs the schema', () => {
    const path = join(dir, 'deep', 'a.sqlite3');
    const db = openSqliteFile(path, 'CREATE TABLE t (x INTEGER);', {
      synchronous: 'FULL',
      incrementalVacuum: true,
    });
    expect(statSync(join(dir, 'deep')).mode & 0o777).toBe(0o700);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    // 2 = FULL, 1 = NORMAL; 2 = INCREMENTAL auto vacuum.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    db.prepare('INSERT INTO t VALUES (1)').run();
    db.close();
    const again = openSqliteFile(path, 'CREATE TABLE IF NOT EXISTS t (x INTEGER);');
    expect(again.pragma('synchronous', { simple: true })).toBe(1);
    expect(again.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    again.close();
  });

  it('throws a schema that fails, leaving no database open on the file', () => {
    const path = join(dir, 'b.sqlite3');
    expect(() => openSqliteFile(path, 'CREATE TABLE broken (')).toThrow(/syntax|incomplete/i);
    // Closed: the file can be opened and written at once by the next owner.
    const db = openSqliteFile(path, 'CREATE TABLE ok (x INTEGER);', { busyTimeoutMs: 0 });
    db.prepare('INSERT INTO ok VALUES (1)').run();
    db.close();
  });
});
