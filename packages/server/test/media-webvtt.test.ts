import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:dgram';
import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMediaList, strictParseError } from './conformance-hls-check.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, segmentUris, stopChild } from './media-helpers.js';
import { startTeletextRelay } from './subtitle-relay.js';

/** The server's running WebVTT conversions: its ffmpeg children reading teletext (/proc). */
async function conversionsOf(pid: number): Promise<number> {
  const read = (path: string) => readFile(path, 'utf8').catch(() => '');
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const children = (await Promise.all(tasks.map((t) => read(`/proc/${pid}/task/${t}/children`))))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean);
  const commands = await Promise.all(children.map((c) => read(`/proc/${c}/cmdline`)));
  return commands.filter((c) => c.includes('-txt_format')).length;
}

/** The first video PTS (90 kHz) of a TS segment, as ffprobe reads it. */
function firstVideoPts(segment: Buffer): number {
  const out = spawnSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts', '-of', 'csv=p=0', 'pipe:0'],
    { input: segment },
  );
  // One line per packet ("126000,"), side data on lines of their own.
  const pts = out.stdout
    .toString()
    .split('\n')
    .map((line) => Number.parseInt(line, 10))
    .filter(Number.isFinite);
  return Math.min(...pts);
}

interface VttCue {
  fromS: number;
  toS: number;
  text: string;
}

function readVtt(text: string): { mpegts: number; local: string; cues: VttCue[] } {
  const map = /^X-TIMESTAMP-MAP=MPEGTS:(\d+),LOCAL:([\d:.]+)$/m.exec(text);
  const seconds = (t: string) => t.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
  const cues = [...text.matchAll(/^([\d:.]+) --> ([\d:.]+)\n(.+)$/gm)].map((m) => ({
    fromS: seconds(m[1]!),
    toS: seconds(m[2]!),
    text: m[3]!,
  }));
  return { mpegts: Number(map?.[1]), local: map?.[2] ?? '', cues };
}

/**
 * A DVB program with German teletext subtitles (page 888, `Line N` once a second) served as HLS:
 * the master lists a WebVTT rendition, its playlist follows the video's, and its segments hold the
 * words sent during each segment, timed on the video's clock.
 */
describe('teletext subtitles as WebVTT in HLS', () => {
  let server: RunningServer;
  let relay: Socket;
  let encoder: ChildProcess;
  let browser: Browser | undefined;
  /** Each page sent: its clock (PCR, 90 kHz) when it left, and its words. */
  const sent: { pcr: number; text: string }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({
      config: `${minimalConfig}stream tt {\n  url udp://127.0.0.1:${port};\n  static true;\n}\n`,
    });
    ({ relay, encoder } = await startTeletextRelay([port], (pts, text) =>
      sent.push({ pcr: pts - 90_000, text }),
    ));
  });
  afterAll(async () => {
    await browser?.close();
    if (encoder) await stopChild(encoder);
    relay?.close();
    await server?.cleanup();
  });

  // First, while no segment is converted yet: every .vtt asked for needs its own ffmpeg run.
  it('a burst of 30 .vtt requests runs at most 2 conversions at once; each answers 200 or 503 with Retry-After and the server goes on', async () => {
    const list = await waitFor(async () => {
      const r = await getText(`${server.url}/tt/subs-deu.m3u8`);
      const parsed = r.status === 200 ? readMediaList(r.text) : undefined;
      return parsed && parsed.segments.length >= 4 ? parsed : undefined;
    }, 40_000);
    const sequences = list.segments.map((s) => s.sequence);
    let peak = 0;
    let done = false;
    const sampler = (async () => {
      while (!done) peak = Math.max(peak, await conversionsOf(server.process.pid!));
    })();
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const r = await fetch(`${server.url}/tt/subs-deu-${sequences[i % sequences.length]}.vtt`);
        return { status: r.status, retryAfter: r.headers.get('retry-after'), text: await r.text() };
      }),
    );
    done = true;
    await sampler;
    expect(peak).toBeGreaterThan(0); // the sampler saw conversions run: the bound below is measured
    expect(peak).toBeLessThanOrEqual(2);
    for (const a of answers) {
      if (a.status === 503) {
        expect(a.retryAfter).toMatch(/^\d+$/);
        expect(a.text).toMatch(/busy/);
      } else {
        expect(a.status).toBe(200);
        expect(a.text).toMatch(/^WEBVTT\n/);
      }
    }
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect((await getText(`${server.url}/tt/subs-deu.m3u8`)).status).toBe(200);
  });

  it('lists a SUBTITLES group in the master and an aligned WebVTT playlist whose segments hold the words on the video clock', async () => {
    const master = await waitFor(async () => {
      const r = await getText(`${server.url}/tt/index.m3u8`);
      return r.status === 200 && r.text.includes('TYPE=SUBTITLES') ? r.text : undefined;
    }, 40_000);
    expect(master).toContain(
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="deu",NAME="deu",DEFAULT=NO,AUTOSELECT=YES,URI="subs-deu.m3u8"',
    );
    const variants = master.split('\n').filter((l) => l.startsWith('#EXT-X-STREAM-INF:'));
    expect(variants.length).toBeGreaterThan(0);
    for (const v of variants) expect(v).toMatch(/,SUBTITLES="subs"$/);
    expect(strictParseError(master)).toBeUndefined();

    // Read back to back until no segment was cut in between: the same sequence and durations.
    const [video, subs] = await waitFor(async () => {
      const v = (await getText(`${server.url}/tt/video.m3u8`)).text;
      const s = (await getText(`${server.url}/tt/subs-deu.m3u8`)).text;
      return readMediaList(v).mediaSequence === readMediaList(s).mediaSequence &&
        segmentUris(v).length === segmentUris(s).length
        ? [v, s]
        : undefined;
    });
    expect(strictParseError(subs)).toBeUndefined();
    const [v, s] = [readMediaList(video), readMediaList(subs)];
    expect(s.segments.map((x) => [x.sequence, x.durationS])).toEqual(
      v.segments.map((x) => [x.sequence, x.durationS]),
    );
    expect(s.segments.map((x) => x.uri)).toEqual(v.segments.map((x) => `subs-deu-${x.sequence}.vtt`));

    // The newest segment with a page starting in it: its cues are the pages sent then.
    const checked = await waitFor(async () => {
      const list = readMediaList((await getText(`${server.url}/tt/subs-deu.m3u8`)).text);
      const last = list.segments.at(-1)!;
      const answer = await fetch(`${server.url}/tt/subs-deu-${last.sequence}.vtt`);
      expect(answer.headers.get('content-type')).toMatch(/^text\/vtt/);
      const vtt = readVtt(await answer.text());
      const segment = await getBytes(`${server.url}/tt/seg-${last.sequence}.ts`);
      return vtt.cues.some((c) => c.fromS > 0) ? { vtt, segment, durationS: last.durationS } : undefined;
    }, 30_000);
    const { vtt, segment, durationS } = checked;
    expect(vtt.local).toBe('00:00:00.000');
    expect(vtt.mpegts).toBe(firstVideoPts(segment));
    for (const cue of vtt.cues) {
      expect(cue.text).toMatch(/^Line \d+$/);
      expect(cue.toS).toBeLessThanOrEqual(durationS + 0.001);
      if (cue.fromS === 0) continue; // shown since the previous segment
      // On the video clock the cue starts when its page was sent (ffmpeg times teletext by arrival).
      const page = sent.find((p) => p.text === cue.text)!;
      expect(Math.abs(vtt.mpegts / 90_000 + cue.fromS - page.pcr / 90_000)).toBeLessThan(0.5);
    }
  });

  it('hls.js in Chromium lists the German subtitles and, once picked, shows the words of the pages', async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--autoplay-policy=no-user-gesture-required'],
    });
    const page = await browser.newPage();
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<video muted playsinline></video>');
    await page.addScriptTag({ url: '/embed/hls.min.js' });
    await page.evaluate(play, `${server.url}/tt/index.m3u8`);
    // DEFAULT=NO: nothing shows until the viewer picks the subtitles from the player's list.
    type Picker = { hls: { subtitleTracks: { lang?: string }[]; subtitleTrack: number } };
    await page.waitForFunction(() => (window as unknown as Picker).hls.subtitleTracks.length > 0);
    expect(await page.evaluate(() => (window as unknown as Picker).hls.subtitleTracks[0]!.lang)).toBe('deu');
    await page.evaluate(() => {
      (window as unknown as Picker).hls.subtitleTrack = 0;
    });
    const handle = await page.waitForFunction(
      () => {
        const w = window as unknown as { fatal: string[] };
        if (w.fatal.length > 0) return { fatal: w.fatal };
        const tracks = [...document.querySelector('video')!.textTracks];
        const cues = tracks.flatMap((t) =>
          [...(t.cues ?? [])].map((c) => ({ text: (c as VTTCue).text, kind: t.kind, lang: t.language })),
        );
        return cues.some((c) => /^Line \d+$/.test(c.text)) ? { cue: cues.at(-1) } : false;
      },
      null,
      { timeout: 40_000 },
    );
    const seen = (await handle.jsonValue()) as { fatal?: string[]; cue?: unknown };
    expect(seen.fatal).toBeUndefined();
    expect(seen.cue).toMatchObject({
      kind: 'subtitles',
      lang: 'deu',
      text: expect.stringMatching(/^Line \d+$/),
    });
    await page.close();
  });
});

/** In the page: hls.js on `url` (as `window.hls`), fatal errors kept. */
function play(url: string): void {
  type Hls = {
    loadSource: (u: string) => void;
    attachMedia: (v: HTMLVideoElement) => void;
    on: (e: string, l: (e: string, d: { fatal?: boolean; details?: string }) => void) => void;
    subtitleTrack: number;
  };
  const w = window as unknown as {
    Hls: { new (): Hls; Events: { ERROR: string } };
    fatal: string[];
    hls?: Hls;
  };
  w.fatal = [];
  const video = document.querySelector('video')!;
  const hls = new w.Hls();
  hls.on(w.Hls.Events.ERROR, (_e, data) => {
    if (data.fatal) w.fatal.push(data.details ?? 'fatal');
  });
  w.hls = hls;
  hls.loadSource(url);
  hls.attachMedia(video);
  void video.play().catch(() => undefined);
}
