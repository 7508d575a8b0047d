import { expect, type Locator, type Page } from '@playwright/test';
import type { RunningServer } from '../../../server/test/harness.js';
import { streamStats } from '../../../server/test/media-helpers.js';

/** Seconds behind the live edge: the end of what the live playlist offers minus the play position. */
export const liveLatencySeconds = (video: Locator) =>
  video.evaluate((v: HTMLVideoElement) =>
    v.seekable.length > 0 ? v.seekable.end(v.seekable.length - 1) - v.currentTime : Infinity,
  );

/** Three 2 s segments (the server's default segment duration): "near the live edge". */
export const NEAR_LIVE_SECONDS = 6;

/** Waits until the video plays on its own (the position moves on) within a few segments of live. */
export async function expectPlayingNearLive(video: Locator): Promise<void> {
  const start = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime), { timeout: 40_000 })
    .toBeGreaterThan(start + 1);
  await expect.poll(() => liveLatencySeconds(video), { timeout: 20_000 }).toBeLessThan(NEAR_LIVE_SECONDS);
}

/** Counts the page's requests for the stream's playlists and segments. */
export function countMediaRequests(page: Page, name: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(`/${name}/`)) count++;
  });
  return () => count;
}

/**
 * Waits while the stream produces `seconds` more media (its last_dts moves on): a condition that
 * takes that long, so "nothing happened meanwhile" is checked over real stream time, not a sleep.
 */
export async function waitForMoreMedia(server: RunningServer, name: string, seconds: number): Promise<void> {
  const first = (await streamStats(server, name)).last_dts ?? 0;
  await expect
    .poll(async () => ((await streamStats(server, name)).last_dts ?? 0) - first, { timeout: 60_000 })
    .toBeGreaterThan(seconds * 1000);
}

/** The stream's viewer count on the server. */
export const viewers = async (server: RunningServer, name: string) =>
  (await streamStats(server, name)).client_count ?? 0;

/** Hides or shows the page as a background tab would be (document.visibilityState and its event). */
export async function setPageHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hide) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hide ? 'hidden' : 'visible'),
    });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hide });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}
