import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { minimalConfig, type RunningServer, startServer } from './harness.js';
import { makeMovie, remux } from './vod-playback-fixture.js';

/** The file the browser tests play: H.264 (a keyframe every 2 s) + AAC, 320x180. */
export const MOVIE_S = 60;

export interface VodPlaybackFixture {
  server: RunningServer;
  browser: Browser;
  /** /vod/movie.mp4 on the server: the file, with /index.m3u8, /index.mpd … after it. */
  movieUrl: string;
  close: () => Promise<void>;
}

/**
 * A server with `file vod { path DIR; }` holding a 60 s MP4 made by ffmpeg (and its MKV twin,
 * movie.mkv), and a Chromium that
 * autoplays: what the VOD browser tests (hls.js, dash.js, progressive) play.
 */
export async function startVodPlayback(): Promise<VodPlaybackFixture> {
  const media = await mkdtemp(join(tmpdir(), 'sluice-vod-play-'));
  makeMovie(join(media, 'movie.mp4'), MOVIE_S);
  // The same in MKV: a file the MP4 reader does not open, played through ffmpeg (vod/ffmpeg-source.ts).
  remux(join(media, 'movie.mp4'), join(media, 'movie.mkv'));
  const server = await startServer({ config: `${minimalConfig}file vod {\n  path ${media};\n}\n` });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--autoplay-policy=no-user-gesture-required'],
  });
  return {
    server,
    browser,
    movieUrl: `${server.url}/vod/movie.mp4`,
    close: async () => {
      await browser.close();
      await server.cleanup();
      await rm(media, { recursive: true, force: true });
    },
  };
}

/**
 * Seeks the page's <video> to `toS`, waits until it plays on from there (the picture moves past
 * `toS`, the seek done) and then until it has played `advanceS` more. Returns the ms from the seek
 * to the picture moving again: what a viewer waits.
 */
export async function seekAndPlay(
  page: Page,
  toS: number,
  advanceS: number,
  budgetMs: number,
): Promise<number> {
  const startedMs = Date.now();
  await page.evaluate((t) => {
    document.querySelector('video')!.currentTime = t;
  }, toS);
  const moved = (t: number) => {
    const video = document.querySelector('video')!;
    return !video.seeking && video.currentTime > t;
  };
  await page.waitForFunction(moved, toS + 0.1, { timeout: budgetMs });
  const movedMs = Date.now() - startedMs;
  await page.waitForFunction(moved, toS + advanceS, { timeout: budgetMs });
  return movedMs;
}

/** Waits until the page's <video> has played past `s`. */
export async function playedPast(page: Page, s: number, budgetMs: number): Promise<void> {
  await page.waitForFunction((t) => document.querySelector('video')!.currentTime > t, s, {
    timeout: budgetMs,
  });
}
