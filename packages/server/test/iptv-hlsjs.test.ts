import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, streamStats } from './media-helpers.js';
import { createUser, parseM3u } from './iptv-helpers.js';

const channel = (name: string, tone: number) =>
  `stream ${name} {\n  url test://?size=320x180&bitrate=300&tone=${tone};\n  static true;\n  meta { iptv; }\n}\n`;

/** Issue 24's done-when: a subscriber's playlist played channel by channel with hls.js in Chromium. */
describe('an IPTV playlist played by hls.js, channel by channel', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ config: `${minimalConfig}${channel('one', 440)}${channel('two', 880)}` });
    const auth = { auth: { url: `http://127.0.0.1:${server.port}/tv/auth` } };
    await modifyConfig(server, {
      plugins: { iptv: { database: 'iptv.db' } },
      streams: { one: auth, two: auth },
    });
    await waitFor(
      async () => (await streamStats(server, 'one')).alive && (await streamStats(server, 'two')).alive,
      30_000,
    );
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--autoplay-policy=no-user-gesture-required'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  it('plays the first channel, then the second, 3 s each, with no fatal error and every request allowed', async () => {
    const user = await createUser(server, { name: 'Zapper', email: 'zap@example.com', max_sessions: 1 });
    const list = await getText(`${server.url}/tv/playlists/${user.id}.m3u?key=${user.key}`);
    const urls = parseM3u(list.text).entries.map((e) => e.url);
    expect(urls).toEqual([
      `${server.url}/one/index.m3u8?token=${user.key}`,
      `${server.url}/two/index.m3u8?token=${user.key}`,
    ]);
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<video muted playsinline></video>');
    await page.addScriptTag({ url: '/embed/hls.min.js' });
    for (const url of urls) {
      await page.evaluate(play, url);
      // max_sessions 1: the channel change of this browser (same address and User-Agent) replaces its session.
      // The picture moves 3 s past where it started (a live stream starts near its edge).
      await page.waitForFunction(
        () => {
          const w = window as unknown as { startedAt?: number };
          return w.startedAt !== undefined && document.querySelector('video')!.currentTime > w.startedAt + 3;
        },
        null,
        { timeout: 40_000 },
      );
      const seen = await page.evaluate(() => ({
        fatal: (window as unknown as { fatal: string[] }).fatal,
        width: document.querySelector('video')!.videoWidth,
      }));
      expect(seen).toEqual({ fatal: [], width: 320 });
    }
    expect(refused).toEqual([]);
    await page.close();
  }, 120_000);
});

/** In the page: a fresh hls.js on `url` (the previous one destroyed, as an app changing channels). */
function play(url: string): void {
  type Hls = {
    loadSource: (u: string) => void;
    attachMedia: (v: HTMLVideoElement) => void;
    destroy: () => void;
    on: (e: string, l: (e: string, d: { fatal?: boolean; details?: string }) => void) => void;
  };
  const w = window as unknown as {
    Hls: { new (): Hls; Events: { ERROR: string } };
    hls?: Hls;
    fatal: string[];
    startedAt?: number;
  };
  w.hls?.destroy();
  // A fresh <video> per channel, so the previous channel's time says nothing.
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  document.querySelector('video')!.replaceWith(video);
  w.fatal = [];
  w.startedAt = undefined;
  video.addEventListener('playing', () => (w.startedAt ??= video.currentTime));
  const hls = new w.Hls();
  hls.on(w.Hls.Events.ERROR, (_e, data) => {
    if (data.fatal) w.fatal.push(data.details ?? 'fatal');
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  w.hls = hls;
  void video.play().catch(() => undefined);
}
