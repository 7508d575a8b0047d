import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AD_VIEW_KEY_TTL_MS, AdStats } from './ad-stats.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sluice-ad-stats-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('AdStats', () => {
  it('counts shows, and views as distinct sessions per stream and file', () => {
    const stats = new AdStats(join(dir, 'a.sqlite3'));
    stats.recordShow('news', 'vod/ads/a.mp4');
    stats.recordShow('news', 'vod/ads/a.mp4');
    stats.recordShow('news', 'vod/ads/b.mp4');
    stats.recordShow('sport', 'vod/ads/a.mp4');
    // One session fetching many segments of one ad is one view; the same session in another stream
    // or of another file is another view.
    for (let i = 0; i < 5; i++) stats.recordView('news', 'vod/ads/a.mp4', 'session-1');
    stats.recordView('news', 'vod/ads/a.mp4', 'session-2');
    stats.recordView('news', 'vod/ads/b.mp4', 'session-1');
    stats.recordView('sport', 'vod/ads/a.mp4', 'session-1');
    expect(stats.snapshot()).toEqual({
      news: [
        { name: 'vod/ads/a.mp4', show_count: 2, view_count: 2 },
        { name: 'vod/ads/b.mp4', show_count: 1, view_count: 1 },
      ],
      sport: [{ name: 'vod/ads/a.mp4', show_count: 1, view_count: 1 }],
    });
    stats.close();
  });

  it('keeps the counts and the sessions already counted when reopened (a restart)', () => {
    const path = join(dir, 'b.sqlite3');
    const first = new AdStats(path);
    first.recordShow('news', 'a.mp4');
    first.recordView('news', 'a.mp4', 'session-1');
    first.close();
    const second = new AdStats(path);
    second.recordView('news', 'a.mp4', 'session-1');
    second.recordView('news', 'a.mp4', 'session-3');
    second.recordShow('news', 'a.mp4');
    expect(second.snapshot()).toEqual({ news: [{ name: 'a.mp4', show_count: 2, view_count: 2 }] });
    second.close();
  });

  it('forgets idle session keys (bounded) without lowering the counts', () => {
    let now = 1_000_000;
    const stats = new AdStats(':memory:', () => now);
    for (let i = 0; i < 1000; i++) stats.recordView('news', 'a.mp4', `old-${i}`);
    expect(stats.keyCount()).toBe(1000);
    now += AD_VIEW_KEY_TTL_MS / 2;
    // A session still watching is touched, so it stays.
    stats.recordView('news', 'a.mp4', 'old-0');
    now += AD_VIEW_KEY_TTL_MS / 2 + 1;
    expect(stats.prune()).toBe(999);
    expect(stats.keyCount()).toBe(1);
    stats.recordView('news', 'a.mp4', 'old-0');
    stats.recordView('news', 'a.mp4', 'new-1');
    expect(stats.snapshot().news).toEqual([{ name: 'a.mp4', show_count: 0, view_count: 1001 }]);
    stats.close();
  });

  it('tells a failed write (the file locked by another writer) instead of throwing into playback', () => {
    const path = join(dir, 'c.sqlite3');
    const lines: string[] = [];
    const stats = new AdStats(path, Date.now, (line) => lines.push(line));
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    // (One write: each waits out the 2 s busy timeout.)
    expect(() => stats.recordView('news', 'a.mp4', 'session-1')).not.toThrow();
    expect(stats.failures).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/ad counts can't be written .*locked/)]);
    other.exec('ROLLBACK');
    other.close();
    // The view that failed is counted at the session's next fetch.
    stats.recordView('news', 'a.mp4', 'session-1');
    expect(stats.snapshot()).toEqual({ news: [{ name: 'a.mp4', show_count: 0, view_count: 1 }] });
    stats.close();
  });
});
