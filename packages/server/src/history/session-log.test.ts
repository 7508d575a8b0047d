import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIELD_LIMITS, SESSION_LOG_FILE, SessionLog, type SessionRecord, truncate } from './session-log.js';

describe('SessionLog (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-session-log-'));
  const log = new SessionLog(join(dir, 'nested', 'log'));
  afterAll(() => {
    log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const record = (
    id: string,
    name: string,
    createdAt: number,
    deletedAt: number,
    over: Partial<SessionRecord> = {},
  ) =>
    log.write({
      id,
      name,
      type: 'hls',
      ip: '10.0.0.1',
      country: 'FR',
      createdAt,
      deletedAt,
      bytesSent: 100,
      userId: undefined,
      token: undefined,
      userAgent: 'UA',
      ...over,
    });

  record('1', 'live/a', 1000, 5000, { bytesSent: 300 });
  record('2', 'live/b', 2000, 3000, { type: 'mpegts', country: 'DE' });
  record('3', 'lively/c', 1000, 9000);
  record('4', 'live0', 1000, 2000, { userId: 'u4', token: 't4' });
  record('5', 'live/a', 10_000, 12_000, { bytesSent: 500 });

  it('reads a stream, newest first, with durations', () => {
    const sessions = log.sessions({ name: 'live/a' });
    expect(sessions.map((s) => [s.id, s.duration])).toEqual([
      ['5', 2000],
      ['1', 4000],
    ]);
    expect(log.sessions({ name: 'live0' })[0]).toMatchObject({
      user_id: 'u4',
      token: 't4',
      user_agent: 'UA',
    });
  });

  it("reads a location's streams by prefix, no others", () => {
    expect(log.sessions({ prefix: 'live', sort: 'created_at', sortDir: 'asc' }).map((s) => s.id)).toEqual([
      '1',
      '2',
      '5',
    ]);
  });

  it('keeps the sessions open during [from, to] and sorts by any field', () => {
    expect(
      log.sessions({ from: 2500, to: 4000, sort: 'duration', sortDir: 'desc' }).map((s) => s.id),
    ).toEqual(['3', '1', '2']);
    expect(log.sessions({ sort: 'bytes_sent', sortDir: 'desc' })[0]!.id).toBe('5');
  });

  it('reports by protocol and country', () => {
    expect(log.report({ prefix: 'live' })).toEqual([
      {
        type: 'hls',
        country: 'FR',
        count: 2,
        total_duration: 6000,
        avg_duration: 3000,
        total_bytes: 800,
        avg_bytes: 400,
      },
      {
        type: 'mpegts',
        country: 'DE',
        count: 1,
        total_duration: 1000,
        avg_duration: 1000,
        total_bytes: 100,
        avg_bytes: 100,
      },
    ]);
  });

  it('keeps what it wrote across a reopen', () => {
    // The fixture's sessions date from 1970: kept by a retention long enough for them.
    const again = new SessionLog(join(dir, 'nested', 'log'), { maxAgeDays: 100_000, maxBytes: 1e9 });
    expect(again.sessions({}).length).toBe(5);
    expect(again.spans('live/a', 0, 6000)).toEqual([[1000, 5000]]);
    again.close();
  });
});

describe('SessionLog limits (a real SQLite file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-session-limits-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const DAY_MS = 86_400_000;
  const now = Date.UTC(2025, 0, 31);
  const session = (id: string, createdAt: number, over: Partial<SessionRecord> = {}): SessionRecord => ({
    id,
    name: 'cam',
    type: 'hls',
    ip: '10.0.0.1',
    country: '',
    createdAt,
    deletedAt: createdAt + 1000,
    bytesSent: 0,
    userId: undefined,
    token: `t${id}`.padEnd(4096, 'x'),
    userAgent: `UA ${id} `.padEnd(4096, 'y'),
    ...over,
  });
  const fileBytes = (folder: string) =>
    ['', '-wal'].reduce((sum, suffix) => {
      const path = join(folder, `${SESSION_LOG_FILE}${suffix}`);
      return sum + (existsSync(path) ? statSync(path).size : 0);
    }, 0);

  it('stores a 4 KB token, user agent and user id cut to their documented lengths', () => {
    const log = new SessionLog(join(dir, 'cut'));
    log.write(session('1', now, { userId: 'u'.repeat(4096), name: 'n'.repeat(4096) }));
    const [row] = log.sessions({});
    log.close();
    expect([row!.token!.length, row!.user_agent!.length, row!.user_id!.length, row!.name.length]).toEqual([
      FIELD_LIMITS.token,
      FIELD_LIMITS.userAgent,
      FIELD_LIMITS.userId,
      FIELD_LIMITS.name,
    ]);
    expect([FIELD_LIMITS.token, FIELD_LIMITS.userAgent, FIELD_LIMITS.userId]).toEqual([256, 512, 256]);
    expect(row!.token!.startsWith('t1x')).toBe(true);
  });

  it('never keeps half of a character made of two UTF-16 units', () => {
    expect(truncate('ab😀', 3)).toBe('ab');
    expect(truncate('ab😀', 4)).toBe('ab😀');
  });

  it('deletes sessions older than session_log_days, keeps the newer ones', () => {
    const log = new SessionLog(join(dir, 'age'), { maxAgeDays: 7, maxBytes: 1e9 });
    for (let day = 0; day < 30; day++) log.write(session(`d${day}`, now - day * DAY_MS - 1));
    expect(log.prune(now)).toBe(23);
    expect(
      log
        .sessions({ sort: 'created_at', sortDir: 'asc' })
        .map((s) => s.id)
        .reverse(),
    ).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6']);
    log.close();
  });

  it('past session_log_max_mb deletes the oldest sessions until the file is under it', () => {
    const folder = join(dir, 'size');
    const maxBytes = 1024 * 1024;
    const log = new SessionLog(folder, { maxAgeDays: 365, maxBytes });
    for (let i = 0; i < 3000; i++) log.write(session(String(i).padStart(4, '0'), now - 3000 + i));
    expect(fileBytes(folder)).toBeGreaterThan(2 * maxBytes);
    expect(log.prune(now)).toBeGreaterThan(1000);
    const kept = log.sessions({ sort: 'created_at', sortDir: 'asc' }).map((s) => s.id);
    log.close();
    // The newest are kept, the oldest went; the file itself shrank (incremental vacuum).
    expect(kept.at(-1)).toBe('2999');
    expect(kept[0]! > '1000').toBe(true);
    expect(fileBytes(folder)).toBeLessThanOrEqual(maxBytes);
  });

  it('prunes as it opens: a log left over its limits is cut at the next start', () => {
    const folder = join(dir, 'reopen');
    const first = new SessionLog(folder, { maxAgeDays: 365, maxBytes: 1e9 });
    first.write(session('old', Date.now() - 10 * DAY_MS));
    first.write(session('new', Date.now()));
    first.close();
    const again = new SessionLog(folder, { maxAgeDays: 5, maxBytes: 1e9 });
    expect(again.sessions({}).map((s) => s.id)).toEqual(['new']);
    again.close();
  });
});
