import type { HistorySession } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { locationSessions, sessionsReport } from './history-report.js';

const session = (id: string, name: string, type: string, country: string, duration: number, bytes: number) =>
  ({
    id,
    name,
    type,
    country,
    duration,
    bytes_sent: bytes,
    ip: '127.0.0.1',
    created_at: 0,
    deleted_at: duration,
    user_id: null,
    token: null,
    user_agent: null,
  }) satisfies HistorySession;

describe('location history', () => {
  it('keeps the sessions of streams under the prefix only', () => {
    const all = [
      session('1', 'cams/a', 'hls', '', 1, 1),
      session('2', 'camsx/b', 'hls', '', 1, 1),
      session('3', 'cams', 'hls', '', 1, 1),
    ];
    expect(locationSessions(all, 'cams').map((s) => s.id)).toEqual(['1']);
  });

  it('sums a report per protocol and country with averages', () => {
    const rows = sessionsReport([
      session('1', 'cams/a', 'hls', 'NL', 1000, 100),
      session('2', 'cams/b', 'hls', 'NL', 3000, 300),
      session('3', 'cams/a', 'dash', '', 500, 50),
    ]);
    expect(rows).toEqual([
      {
        type: 'dash',
        country: '',
        avg_duration: 500,
        total_duration: 500,
        avg_bytes: 50,
        total_bytes: 50,
        count: 1,
      },
      {
        type: 'hls',
        country: 'NL',
        avg_duration: 2000,
        total_duration: 4000,
        avg_bytes: 200,
        total_bytes: 400,
        count: 2,
      },
    ]);
  });
});
