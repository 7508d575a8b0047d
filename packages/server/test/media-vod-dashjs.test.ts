import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playerReport, servePlayerPage, startDashJs } from './dash-player-page.js';
import {
  MOVIE_S,
  playedPast,
  seekAndPlay,
  startVodPlayback,
  type VodPlaybackFixture,
} from './media-vod-fixture.js';

/** From a seek to the picture moving on past it, with a generous margin for a loaded machine. */
const SEEK_BUDGET_MS = 15_000;

/**
 * The 60 s MP4 under a VOD prefix played by dash.js (a player nobody here wrote) from index.mpd, on
 * a page of another origin (every request cross-origin, as an embed on a customer's site): it
 * plays from the start, seeks to the middle and to near the end and plays on, with no error.
 */
describe('a VOD file played in Chromium with dash.js', () => {
  let fixture: VodPlaybackFixture;
  let playerPage: Awaited<ReturnType<typeof servePlayerPage>>;

  beforeAll(async () => {
    fixture = await startVodPlayback();
    playerPage = await servePlayerPage();
  }, 120_000);
  afterAll(async () => {
    await playerPage?.close();
    await fixture?.close();
  });

  it('dash.js plays index.mpd, seeks to the middle and near the end and plays on, no error', async () => {
    const page: Page = await fixture.browser.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    const pieces: string[] = [];
    page.on('requestfinished', (request) => {
      if (request.url().endsWith('.m4s')) pieces.push(request.url().split('/').pop()!);
    });
    await page.goto(playerPage.url);
    await startDashJs(page, `${fixture.movieUrl}/index.mpd`);
    await playedPast(page, 2, 30_000);
    const middleMs = await seekAndPlay(page, MOVIE_S / 2, 2, SEEK_BUDGET_MS);
    const endMs = await seekAndPlay(page, MOVIE_S - 6, 3, SEEK_BUDGET_MS);
    const report = await playerReport(page);
    const size = await page.evaluate(() => {
      const video = document.querySelector('video')!;
      return { width: video.videoWidth, height: video.videoHeight };
    });
    console.log(
      `dash.js VOD: playing again ${middleMs} ms after a seek to the middle, ${endMs} ms near the end`,
    );
    expect(report.playing).toBe(true);
    expect([...report.errors, ...consoleErrors]).toEqual([]);
    expect(size).toEqual({ width: 320, height: 180 });
    // Video (track 1 of the MP4) and audio (track 2) pieces of where it was sent, not all from the start.
    const middle = Math.floor(MOVIE_S / 2 / 4);
    expect(pieces.some((p) => new RegExp(`^seg-\\d+-${middle}\\.m4s`).test(p))).toBe(true);
    expect(new Set(pieces.filter((p) => p.startsWith('init-'))).size).toBe(2);
  }, 120_000);
});
