import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PulseStore } from './pulse-store.js';
import { RESOLUTIONS, blocksPerSeries } from './pulse-resolutions.js';

// On tmpfs where there is one: the year's simulation is about bounds, not the disk's fsync speed.
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'sluice-pulse-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A fixed, hour-aligned clock start: tests set the time by hand. */
const T0 = Date.UTC(2026, 0, 1);
const values = (points: [number, number][]) => points.map(([, v]) => v);

describe('PulseStore', () => {
  it('keeps seconds, their minute means and the minutes’ hour means', () => {
    const store = new PulseStore();
    // Two hours of one value a second (100, then 200), and a minute more: that minute closes the hour.
    for (let s = 0; s <= 2 * 3600 + 60; s++)
      store.record('total_output', {}, s < 3600 ? 100 : 200, T0 + s * 1000);
    const [info] = store.series('total_output');
    const end = T0 + 2 * HOUR;
    expect(store.points(info!, 0, end - 10_000, end).length).toBe(11);
    const minutes = store.points(info!, 1, T0, end - 1);
    expect(minutes).toHaveLength(120);
    expect(values(minutes.slice(58, 62))).toEqual([100, 100, 200, 200]);
    expect(store.points(info!, 2, T0, end - 1)).toEqual([
      [T0, 100],
      [T0 + HOUR, 200],
    ]);
    store.close(end);
  });

  it('survives a restart: the file holds what was measured, the open minute goes on', () => {
    const path = join(dir, 'restart.db');
    const first = new PulseStore(path);
    for (let s = 0; s < 90; s++) first.record('media_output', { name: 'a' }, s < 60 ? 10 : 30, T0 + s * 1000);
    first.close(T0 + 90_000);
    const second = new PulseStore(path);
    for (let s = 90; s < 120; s++) second.record('media_output', { name: 'a' }, 50, T0 + s * 1000);
    second.record('media_output', { name: 'a' }, 0, T0 + 120_000);
    const info = second.find('media_output', { name: 'a' })!;
    expect(second.points(info, 0, T0, T0 + 119_000)).toHaveLength(120);
    // The second minute: 30 s at 30 before the restart, 30 s at 50 after.
    expect(second.points(info, 1, T0, T0 + 60_000)).toEqual([
      [T0, 10],
      [T0 + 60_000, 40],
    ]);
    second.close(T0 + 121_000);
  });

  it('stays within its bound over a simulated year, and each resolution keeps its window', () => {
    const path = join(dir, 'year.db');
    const store = new PulseStore(path);
    const series = 5;
    const end = T0 + 365 * DAY;
    // A value every 10 minutes for each series over a year (every minute, hour and day block is
    // written), flushed every 6 simulated hours; a year at one value a second would take hours here.
    for (let t = T0; t < end; t += 600_000) {
      for (let i = 0; i < series; i++) store.record('media_output', { name: `s${i}` }, i, t);
      if (t % (6 * HOUR) === 0) store.flush(t);
    }
    // The last hour at one value a second.
    for (let t = end; t < end + HOUR; t += 1000) store.record('media_output', { name: 's1' }, 1, t);
    store.flush(end + HOUR);
    const { blocks } = store.counts();
    const bound = series * RESOLUTIONS.reduce((n, r) => n + blocksPerSeries(r), 0);
    expect(blocks).toBeLessThanOrEqual(bound);
    // Each block on disk is its values and less than 1 KB of pages and index around them; the WAL
    // is cut back to 4 MiB (journal_size_limit) after each checkpoint.
    const bytes = statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
    const perSeries = RESOLUTIONS.reduce((n, r) => n + blocksPerSeries(r) * (r.blockLength * 4 + 1024), 0);
    expect(bytes).toBeLessThan(series * perSeries + 4 * 1024 * 1024);
    const info = store.find('media_output', { name: 's1' })!;
    const now = end + HOUR;
    expect(store.points(info, 0, now - 2 * HOUR, now)[0]![0]).toBeGreaterThanOrEqual(now - HOUR - 60_000);
    expect(store.points(info, 1, T0, now)[0]![0]).toBeGreaterThanOrEqual(now - 7 * DAY - DAY);
    const hours = store.points(info, 2, T0, now);
    expect(hours[0]![0]).toBeGreaterThanOrEqual(now - 365 * DAY - DAY);
    expect(hours.length).toBeGreaterThan(364 * 24);
    store.close(now);
  }, 60_000);

  it('a path that cannot be written: a notice, and collection goes on in memory', () => {
    // Its folder is a file: no user, root included, can create the database there.
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const store = new PulseStore(join(blocker, 'pulse.db'));
    expect(store.inMemory).toBe(true);
    expect(store.notices().error_pulsedb).toContain(`can't be written to ${join(blocker, 'pulse.db')}`);
    store.record('total_clients', {}, 3, T0);
    store.flush(T0);
    expect(values(store.points(store.find('total_clients', {})!, 0, T0, T0))).toEqual([3]);
    store.close(T0);
  });

  it('does not write values before the open block over newer ones (a clock set back)', () => {
    const store = new PulseStore();
    store.record('total_clients', {}, 5, T0 + 120_000);
    store.record('total_clients', {}, 9, T0);
    const info = store.find('total_clients', {})!;
    expect(store.points(info, 0, T0, T0 + 200_000)).toEqual([[T0 + 120_000, 5]]);
    store.close(T0 + 120_000);
  });

  it('after a crash, the minutes not written yet are made again from the stored seconds', () => {
    const path = join(dir, 'crash.db');
    const crashed = new PulseStore(path);
    // Two and a half minutes, flushed every 5 s as collection does; then the process dies (no close).
    for (let s = 0; s < 150; s++) {
      crashed.record('total_output', {}, s < 60 ? 100 : 200, T0 + s * 1000);
      if (s % 5 === 0) crashed.flush(T0 + s * 1000);
    }
    const next = new PulseStore(path);
    next.record('total_output', {}, 300, T0 + 160_000);
    const info = next.find('total_output', {})!;
    expect(next.points(info, 1, T0, T0 + 60_000)).toEqual([
      [T0, 100],
      [T0 + 60_000, 200],
    ]);
    next.close(T0 + 161_000);
  });

  it('a series younger than its first hour outlives the hourly tidy and a restart', () => {
    const path = join(dir, 'young.db');
    const first = new PulseStore(path);
    // 70 minutes of an old series, then a new one joins 30 s before the tidy at T0 + 1 h (flushes
    // every 5 s, as collection does): it has no hour block yet when the tidy looks for empty series.
    for (let s = 0; s <= 4200; s++) {
      const t = T0 + s * 1000;
      first.record('total_clients', {}, 1, t);
      if (s >= 3570) first.record('media_clients', { name: 'young' }, 7, t);
      if (s % 5 === 0) first.flush(t);
    }
    first.close(T0 + 4201_000);
    const second = new PulseStore(path);
    const info = second.find('media_clients', { name: 'young' });
    expect(info).toBeDefined();
    expect(values(second.points(info!, 1, T0, T0 + 4200_000))).toContain(7);
    second.close(T0 + 4201_000);
  });

  it('a store written before minutes were kept by the day is read back (blocks keyed series first)', () => {
    const path = join(dir, 'old-layout.db');
    const old = new Database(path);
    old.exec(`CREATE TABLE series (id INTEGER PRIMARY KEY, metric TEXT NOT NULL, tags TEXT NOT NULL, UNIQUE (metric, tags));
      CREATE TABLE blocks (series INTEGER NOT NULL, res INTEGER NOT NULL, start_ms INTEGER NOT NULL, data BLOB NOT NULL,
        PRIMARY KEY (series, res, start_ms)) WITHOUT ROWID;
      INSERT INTO series VALUES (1, 'cpu_usage', '{}');`);
    const put = old.prepare('INSERT INTO blocks VALUES (1, ?, ?, ?)');
    const block = (length: number, value: number) => Buffer.from(new Float32Array(length).fill(value).buffer);
    // Two hours of minutes (an hour a block, as they were), and their day of hours.
    put.run(1, T0, block(60, 10));
    put.run(1, T0 + HOUR, block(60, 20));
    put.run(2, T0, block(24, 15));
    old.close();
    const store = new PulseStore(path);
    const info = store.find('cpu_usage', {})!;
    const minutes = store.points(info, 1, T0, T0 + 2 * HOUR - 1);
    expect(minutes).toHaveLength(120);
    expect([minutes[0], minutes[119]]).toEqual([
      [T0, 10],
      [T0 + 2 * HOUR - 60_000, 20],
    ]);
    expect(store.points(info, 2, T0, T0)).toEqual([[T0, 15]]);
    store.close(T0 + 2 * HOUR);
  });
});
