import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * A 60 s MP4 under a VOD prefix played in Chromium as an operator's viewers would: with hls.js from
 * index.m3u8 (the TS segments cut at keyframes; the same movie in MKV too, read through ffmpeg), and
 * as the file itself in <video src> (HTTP Range).
 * Each plays from the start, then seeks to the middle and to near the end and plays on from there.
 * The three play at once, each in its own page: a 320x180 picture each is little for two cores, and
 * one after the other they waited out 3 x 7 s of playing time.
 */
describe('a VOD file played in Chromium with hls.js and as progressive MP4', () => {
  let fixture: VodPlaybackFixture;

  beforeAll(async () => {
    fixture = await startVodPlayback();
  }, 120_000);
  afterAll(() => fixture?.close());

  for (const file of ['movie.mp4', 'movie.mkv'])
    it.concurrent(
      `hls.js plays ${file}/index.m3u8, seeks to the middle and near the end and plays on, no fatal error`,
      async () => {
        await playWithHlsJs(file);
      },
      120_000,
    );

  async function playWithHlsJs(file: string): Promise<void> {
    const { server, browser } = fixture;
    const movieUrl = `${server.url}/vod/${file}`;
    const page = await browser.newPage();
    const segments: string[] = [];
    page.on('requestfinished', (request) => {
      if (request.url().endsWith('.ts')) segments.push(request.url().split('/').pop()!);
    });
    // A page of the server's origin running the hls.js the server ships for embed.html.
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<video muted playsinline></video>');
    await page.addScriptTag({ url: '/embed/hls.min.js' });
    await page.evaluate(startHlsJs, `${movieUrl}/index.m3u8`);
    await playedPast(page, 2, 30_000);
    const middleMs = await seekAndPlay(page, MOVIE_S / 2, 2, SEEK_BUDGET_MS);
    const endMs = await seekAndPlay(page, MOVIE_S - 6, 3, SEEK_BUDGET_MS);
    const seen = await page.evaluate(() => {
      const video = document.querySelector('video')!;
      const state = (window as unknown as { player: { fatal: string[] } }).player;
      return { fatal: state.fatal, width: video.videoWidth, height: video.videoHeight };
    });
    console.log(
      `hls.js VOD ${file}: playing again ${middleMs} ms after a seek to the middle, ${endMs} ms near the end`,
    );
    expect(seen.fatal).toEqual([]);
    expect({ width: seen.width, height: seen.height }).toEqual({ width: 320, height: 180 });
    // It fetched the segments of where it was sent, not every one from the start: 4 s segments.
    expect(segments).toContain(`seg-${Math.floor(MOVIE_S / 2 / 4)}.ts`);
    expect(segments).toContain(`seg-${Math.floor((MOVIE_S - 6) / 4)}.ts`);
    await page.close();
  }

  it.concurrent(
    '<video src> plays the file as it is, seeks to the middle and near the end (HTTP Range) and plays on',
    async () => {
      const { server, browser, movieUrl } = fixture;
      const page = await browser.newPage();
      const ranges: string[] = [];
      page.on('request', (request) => {
        const range = request.headers().range;
        if (request.url() === movieUrl && range) ranges.push(range);
      });
      await page.goto(`${server.url}/embed/hls.min.js`);
      await page.setContent(`<video muted playsinline autoplay src="${movieUrl}"></video>`);
      await playedPast(page, 2, 30_000);
      const middleMs = await seekAndPlay(page, MOVIE_S / 2, 2, SEEK_BUDGET_MS);
      const endMs = await seekAndPlay(page, MOVIE_S - 6, 3, SEEK_BUDGET_MS);
      const error = await page.evaluate(() => document.querySelector('video')!.error?.message ?? null);
      await page.close();
      console.log(
        `progressive VOD: playing again ${middleMs} ms after a seek to the middle, ${endMs} ms near the end`,
      );
      expect(error).toBeNull();
      // Chromium asks for byte ranges (bytes=N-), which the server answers 206.
      expect(ranges.length).toBeGreaterThan(0);
    },
    120_000,
  );
});

/** In the page: hls.js on the playlist, noting fatal errors. */
function startHlsJs(playlist: string): void {
  type Listener = (event: string, data: { fatal?: boolean; details?: string }) => void;
  type HlsInstance = {
    loadSource: (url: string) => void;
    attachMedia: (video: HTMLVideoElement) => void;
    on: (event: string, listener: Listener) => void;
  };
  const Hls = (window as unknown as { Hls: { new (): HlsInstance; Events: { ERROR: string } } }).Hls;
  const video = document.querySelector('video')!;
  const state = { fatal: [] as string[] };
  (window as unknown as { player: typeof state }).player = state;
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) state.fatal.push(data.details ?? 'fatal');
  });
  hls.loadSource(playlist);
  hls.attachMedia(video);
  void video.play().catch(() => undefined);
}
