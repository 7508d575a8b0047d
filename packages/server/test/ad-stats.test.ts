import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AD_STATS_FILE, AdStats } from '../src/ads/ad-stats.js';
import { type RunningServer, startServer } from './harness.js';

/**
 * GET /flussonic/api/ad_streams against the built server: the counts in the server's data folder
 * (what the inserter records: ads/inserter.ts), answered per stream and file, kept across a
 * restart, and refused without credentials. The counting rules themselves: src/ads/ad-stats.test.ts.
 */
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sluice-ad-stats-'));
  // Counts a previous run recorded, in the file the server keeps beside its config.
  const earlier = new AdStats(join(dir, AD_STATS_FILE));
  for (let i = 0; i < 3; i++) earlier.recordShow('news', 'vod/ads/spot.mp4');
  earlier.recordShow('news', 'vod/ads/other.mp4');
  for (const key of ['s1', 's2', 's1', 's3', 's2']) earlier.recordView('news', 'vod/ads/spot.mp4', key);
  earlier.recordShow('sport', 'vod/ads/spot.mp4');
  earlier.recordView('sport', 'vod/ads/spot.mp4', 's1');
  earlier.close();
  server = await startServer({ dir });
});
afterAll(async () => {
  await server?.cleanup();
});

const expected = {
  news: [
    { name: 'vod/ads/other.mp4', show_count: 1, view_count: 0 },
    { name: 'vod/ads/spot.mp4', show_count: 3, view_count: 3 },
  ],
  sport: [{ name: 'vod/ads/spot.mp4', show_count: 1, view_count: 1 }],
};

describe('GET /flussonic/api/ad_streams', () => {
  it("answers each stream's ad files with their show and view counts", async () => {
    const response = await server.api('/flussonic/api/ad_streams');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(expected);
  });

  it('refuses a caller without credentials, or with wrong ones', async () => {
    const none = await fetch(`${server.url}/flussonic/api/ad_streams`);
    expect(none.status).toBe(401);
    const wrong = await server.api('/flussonic/api/ad_streams', {
      headers: { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
  });

  it('keeps the counts and the sessions counted across a restart', async () => {
    // Recorded while the server runs (its database is shared, WAL): a new session and a show.
    const live = new AdStats(join(dir, AD_STATS_FILE));
    live.recordShow('news', 'vod/ads/spot.mp4');
    live.recordView('news', 'vod/ads/spot.mp4', 's4');
    live.close();
    await server.restart();
    const response = await server.api('/flussonic/api/ad_streams');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ...expected,
      news: [expected.news[0], { name: 'vod/ads/spot.mp4', show_count: 4, view_count: 4 }],
    });
  });
});
