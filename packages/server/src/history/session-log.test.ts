import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionLog, type SessionRecord } from './session-log.js';

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
    const again = new SessionLog(join(dir, 'nested', 'log'));
    expect(again.sessions({}).length).toBe(5);
    expect(again.spans('live/a', 0, 6000)).toEqual([[1000, 5000]]);
    again.close();
  });
});
