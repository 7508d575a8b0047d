import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureArchive, makeFixtureArchive } from './dvr-archive-fixture.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';

/**
 * The proof: Flussonic's DVR player (npm @flussonic/flussonic-dvr-player 26.5.6, ISC; a
 * test dependency loaded as its own bundle, see media-fmp4-dvr-player.test.ts) pointed at a Sluice
 * stream with an archive shows the archive's ranges on its timeline and plays a moment of the past.
 * The archive is made with ffmpeg in the recorder's layout (dvr/layout.ts) with a 2-minute outage and
 * read back at start; the stream is not running, so there is nothing live: only the archive plays.
 */
const bundle = createRequire(import.meta.url).resolve(
  '@flussonic/flussonic-dvr-player/dist/FlussonicDvrPlayer.js',
);

describe('Flussonic DVR player on a Sluice archive', () => {
  let server: RunningServer;
  let browser: Browser;
  let cam: FixtureArchive;
  // UNIX seconds of the two recorded runs' starts (before and after the outage).
  let firstS: number;
  let secondS: number;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-player-'));
    const root = join(dir, 'dvr');
    // Ten minutes ago, on a whole second: inside the 1 h depth, and on the player's default view.
    const startMs = Math.floor((Date.now() - 600_000) / 1000) * 1000;
    cam = await makeFixtureArchive(root, 'cam', { startMs, before: 8, after: 8, gapMs: 120_000 });
    firstS = startMs / 1000;
    secondS = (startMs + cam.before * cam.segmentMs + cam.gapMs) / 1000;
    server = await startServer({
      dir,
      config: `${minimalConfig}stream cam {\n  url publish://;\n  dvr ${root} 1h;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'cam')).dvr_info?.ranges?.length === 2, 30_000);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--autoplay-policy=no-user-gesture-required'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  it('shows both recorded runs and the outage on its timeline and plays from a moment after the outage', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const answered: { url: string; status: number }[] = [];
    page.on('response', (response) => answered.push({ url: response.url(), status: response.status() }));
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<div id="player" style="width:900px;height:600px"></div>');
    await page.addScriptTag({ path: bundle });
    // The moment of the past to play: 2 s into the second run (the player's view spans about five
    // minutes around it, so both runs are on it). The player's `from` load option (UNIX seconds; also
    // read from ?from= of its embed URL) starts it there instead of live.
    const from = secondS + 2;
    await page.evaluate(
      ([streamerHttp, from]) => {
        type Player = { default: { load: (options: object, element: HTMLElement | null) => unknown } };
        const player = (window as unknown as { FlussonicDvrPlayer: Player }).FlussonicDvrPlayer;
        player.default.load(
          { name: 'cam', streamer_http: streamerHttp, proto: 'hls', autoplay: true, from },
          document.getElementById('player'),
        );
      },
      [server.url, from] as const,
    );

    // The timeline: one filled cell ("hit") per recorded run, starting at each run's first second,
    // with a cell that is not recorded between them: "miss", or "unloaded" while the player has not
    // asked about that stretch. The player draws its cells as its data comes in: wait for them.
    const outageS = firstS + (cam.before * cam.segmentMs) / 1000;
    const drawn = await page
      .waitForFunction(
        ([first, outage, second]) => {
          const cells = [...document.querySelectorAll('.recorded-ranges [data-cy]')]
            .map((n) => `${n.getAttribute('data-cy')}@${n.getAttribute('data-utc')}`)
            .join(' ');
          const empty = '(miss|unloaded)';
          return new RegExp(`hit@${first} ${empty}@${outage}( ${empty}@\\d+)* hit@${second}`).test(cells)
            ? cells
            : false;
        },
        [firstS, outageS, secondS] as const,
        { timeout: 30_000 },
      )
      .catch(async (error: Error) => {
        const cells = await page
          .locator('.recorded-ranges [data-cy]')
          .evaluateAll((nodes) =>
            nodes.map((n) => `${n.getAttribute('data-cy')}@${n.getAttribute('data-utc')}`),
          );
        throw new Error(`${error.message}\ntimeline cells: ${cells.join(' ')}`);
      });
    const hits = ((await drawn.jsonValue()) as string).split(' ').filter((c) => c.startsWith('hit@'));
    expect(hits).toEqual([`hit@${firstS}`, `hit@${secondS}`]);
    expect(answered.some((r) => /\/cam\/ranges\.json\?/.test(r.url) && r.status === 200)).toBe(true);
    expect(answered.some((r) => r.url.endsWith('/cam/info.json') && r.status === 200)).toBe(true);

    // It plays the past: currentTime passes 3 s and keeps going.
    const currentTime = () => page.evaluate(() => document.querySelector('video')?.currentTime ?? 0);
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 3, null, {
      timeout: 40_000,
    });
    const seen = await currentTime();
    await page.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) > t + 1, seen, {
      timeout: 20_000,
    });
    // From the archive, as fMP4 HLS: index-FROM-DURATION.fmp4.m3u8 of that moment, its init and
    // fragments; no MPEG-TS, nothing live.
    const playlist = answered.find((r) => /\/cam\/index-\d+-\d+\.fmp4\.m3u8/.test(r.url));
    expect(playlist?.status).toBe(200);
    const asked = Number(/index-(\d+)-/.exec(playlist!.url)![1]);
    expect(asked).toBeGreaterThanOrEqual(secondS);
    expect(asked).toBeLessThanOrEqual(from);
    expect(answered.some((r) => /\/cam\/dvr\/\d{13}-\d+\.init\.mp4/.test(r.url) && r.status === 200)).toBe(
      true,
    );
    const fragments = answered.filter((r) => /\/cam\/dvr\/\d{13}-\d+\.m4s/.test(r.url));
    expect(fragments.length).toBeGreaterThanOrEqual(2);
    expect(answered.some((r) => /\.ts(\?|$)/.test(r.url) || r.url.endsWith('/cam/index.fmp4.m3u8'))).toBe(
      false,
    );
    // Every request the player made of the stream was answered (no retry storm on an error).
    expect(answered.filter((r) => r.url.includes('/cam/') && r.status >= 400)).toEqual([]);
    // The player's clock shows the past moment it plays: its link to "the current time" carries it.
    const shown = Number(
      new URL((await page.locator('[data-cy="timeStamp"] a').getAttribute('href'))!).searchParams.get('from'),
    );
    expect(shown).toBeGreaterThanOrEqual(from);
    expect(shown).toBeLessThan(secondS + (cam.after * cam.segmentMs) / 1000);
  }, 120_000);
});
