import { request } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureArchive } from './dvr-archive-fixture.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';

/** A raw GET's status (the path sent as given: fetch would resolve dots and escape bytes). */
const rawGet = (port: number, path: string): Promise<number> =>
  new Promise((resolve, reject) => {
    // The status is the answer: timeshift .ts streams never end, so the body is not awaited.
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });

/**
 * Archive URLs from anyone, at random, against a real server with an archive: every answer is a
 * status below 500, and the server keeps answering its API and the archive's playlist afterwards.
 */
describe('archive playback under random requests', () => {
  let server: RunningServer;
  let fromS = 0;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-fuzz-'));
    const root = join(dir, 'dvr');
    const startMs = Math.floor((Date.now() - 600_000) / 1000) * 1000;
    await makeFixtureArchive(root, 'cam', { startMs, before: 3, after: 2 });
    fromS = startMs / 1000;
    server = await startServer({
      dir,
      config: `${minimalConfig}stream cam {\n  url publish://;\n  dvr ${root} 1h;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'cam')).dvr_info?.ranges?.length === 2, 30_000);
  });
  afterAll(async () => {
    await server?.cleanup();
  });

  it('answers 300 random archive requests below 500 and keeps serving', async () => {
    const near = fc.integer({ min: -120, max: 200 }).map((d) => String(fromS + d));
    const number = fc.oneof(
      near,
      fc.integer({ min: -5, max: 4000 }).map(String),
      fc.stringMatching(/^\d{0,22}$/),
    );
    const name = fc.constantFrom('cam', 'nope', '..', 'cam/..', '%2e%2e', 'cam%00', 'a/b/c');
    const shape = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('archive', 'index'),
          number,
          number,
          fc.constantFrom('.m3u8', '.fmp4.m3u8', '.ts', '.mpd', '.json'),
        )
        .map(([k, f, d, ext]) => `${k}-${f}-${d}${ext}`),
      fc
        .tuple(
          fc.constantFrom('timeshift_abs-', 'timeshift_rel-', 'rewind-'),
          number,
          fc.constantFrom('.m3u8', '.ts', '.fmp4.m3u8'),
        )
        .map(([k, n, ext]) => `${k}${n}${ext}`),
      fc.constantFrom(
        'ranges.json?closed_at_gte=x&limit=-1',
        'recording_status.json?from=abc',
        'info.json',
        'media_info.json',
      ),
      number.map((n) => `${n}.jpg`),
      fc
        .tuple(number, number, fc.constantFrom('.ts', '.m4s', '.init.mp4'))
        .map(([s, d, ext]) => `dvr/${s}-${d}${ext}`),
      fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s)),
    );
    const paths = fc.sample(
      fc.tuple(name, shape).map(([n, s]) => `/${n}/${s}`),
      { numRuns: 300, seed: 15 },
    );
    for (const path of paths) {
      const status = await rawGet(server.port, path);
      expect(status, path).toBeGreaterThanOrEqual(200);
      expect(status, path).toBeLessThan(500);
    }
    expect((await server.api('/flussonic/api/server')).status).toBe(200);
    expect((await fetch(`${server.url}/cam/archive-${fromS}-6.m3u8`)).status).toBe(200);
  });
});
