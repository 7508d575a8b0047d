import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseHls, setOptions as setHlsOptions } from 'hls-parser';
import type { MasterPlaylist, MediaPlaylist } from 'hls-parser/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthBackend, type TestBackend } from './auth-helpers.js';
import { bframePublisher } from './dash-helpers.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, modifyConfig, streamStats } from './media-helpers.js';
import { startsWithKeyframe } from './media-splice-helpers.js';

const FPS = 25;

/** The playlist as a strict RFC 8216 parser reads it; throws with its reason when it refuses. */
function strict<T extends MasterPlaylist | MediaPlaylist>(text: string): T {
  setHlsOptions({ strictMode: true, silent: true });
  return parseHls(text) as T;
}

/**
 * Live fMP4 (CMAF) HLS of an RTMP publish with B-frames, the playlist Flussonic's DVR player asks
 * for (/{name}/index.fmp4.m3u8): read as a strict parser and ffmpeg read it, against the TS HLS of
 * the same stream, behind the same play authorization.
 */
describe('live fMP4 HLS', () => {
  let server: RunningServer;
  let backend: TestBackend;
  let publisher: { stop: () => Promise<void> };
  const dir = mkdtempSync(join(tmpdir(), 'fmp4-hls-'));
  const base = () => `${server.url}/cam`;

  beforeAll(async () => {
    backend = await startAuthBackend(['good']);
    const port = await freePort();
    server = await startServer({
      config: `${minimalConfig}rtmp ${port};\nstream cam {\n  publish_enabled true;\n  static true;\n  segment_duration 1;\n}\n`,
    });
    publisher = bframePublisher(`rtmp://127.0.0.1:${port}/static/cam`, FPS);
    await waitFor(
      async () => (await getText(`${base()}/video.m3u8`)).text.split('#EXTINF').length > 3,
      30_000,
    );
  });
  afterAll(async () => {
    await publisher?.stop();
    await server?.cleanup();
    await backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('index.fmp4.m3u8 names one rendition with its codecs; its media playlist is the TS playlist’s segments as fragments', async () => {
    const master = await getText(`${base()}/index.fmp4.m3u8`);
    expect(master.status).toBe(200);
    const variants = strict<MasterPlaylist>(master.text).variants;
    expect(variants).toHaveLength(1);
    expect(variants[0]!.codecs).toMatch(/^avc1\.64[0-9a-f]{4},mp4a\.40\.2$/);
    expect(variants[0]!.resolution).toEqual({ width: 640, height: 360 });
    // Fetched together until no segment was cut between the two requests.
    const [fmp4, ts] = await waitFor(async () => {
      const pair = await Promise.all([
        getText(new URL(variants[0]!.uri, `${base()}/`).href),
        getText(`${base()}/video.m3u8`),
      ]);
      return pair[0].text.split('#EXTINF').length === pair[1].text.split('#EXTINF').length &&
        /MEDIA-SEQUENCE:(\d+)/.exec(pair[0].text)?.[1] === /MEDIA-SEQUENCE:(\d+)/.exec(pair[1].text)?.[1]
        ? pair.map((p) => p.text)
        : undefined;
    }, 10_000);
    const list = strict<MediaPlaylist>(fmp4!);
    const tsList = strict<MediaPlaylist>(ts!);
    expect(list.mediaSequenceBase).toBe(tsList.mediaSequenceBase);
    expect(list.segments.map((s) => s.duration)).toEqual(tsList.segments.map((s) => s.duration));
    expect(list.segments[0]!.map?.uri).toMatch(/^fmp4-init-[0-9a-f]{8}\.mp4$/);
    expect(list.segments.every((s) => /^fmp4-\d+\.m4s$/.test(s.uri))).toBe(true);
  });

  it('a segment from a keyframe and the next, cut inside its GOP, decode with no error, frame for frame as the TS', async () => {
    // segment_duration 1 and a keyframe every 2 s: the segmenter cuts each GOP in two (EXTINF within
    // the target), so every other segment starts without a keyframe and without SPS/PPS.
    const list = strict<MediaPlaylist>((await getText(`${base()}/video.fmp4.m3u8`)).text);
    const tsOf = (uri: string) => getBytes(`${base()}/${uri.replace(/^fmp4-(\d+)\.m4s$/, 'seg-$1.ts')}`);
    const segments = await Promise.all(list.segments.map(async (s) => ({ ...s, ts: await tsOf(s.uri) })));
    const at = segments.findIndex(
      (s, i) => startsWithKeyframe(s.ts) && segments[i + 1] && !startsWithKeyframe(segments[i + 1]!.ts),
    );
    expect(at).toBeGreaterThanOrEqual(0);
    const [a, b] = [segments[at]!, segments[at + 1]!];
    const file = join(dir, 'two.mp4');
    const parts = [a.map!.uri, a.uri, b.uri].map((uri) => getBytes(`${base()}/${uri}`));
    writeFileSync(file, Buffer.concat(await Promise.all(parts)));
    const decode = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { timeout: 60_000 });
    expect(decode.stderr.toString()).toBe('');
    expect(decode.status).toBe(0);
    // Every frame of both TS segments, on the same clock, one after another with no gap.
    const mp4Frames = videoDts(file);
    expect(mp4Frames).toEqual([...videoDts(a.ts), ...videoDts(b.ts)]);
    const steps = new Set(mp4Frames.slice(1).map((dts, i) => dts - mp4Frames[i]!));
    expect([...steps]).toEqual([90_000 / FPS]);
  });

  it('asks play authorization as TS HLS does: a refused token gets 403 and no media', async () => {
    await modifyConfig(server, { streams: { cam: { auth: { url: backend.url } } } });
    try {
      await waitFor(async () => (await getText(`${base()}/index.fmp4.m3u8`)).status === 403, 10_000);
      const good = await getText(`${base()}/video.fmp4.m3u8?token=good`);
      expect(good.status).toBe(200);
      const uris = good.text.split('\n').filter((l) => l.includes('fmp4-'));
      expect(uris.every((l) => l.includes('?token=good'))).toBe(true);
      const fragment = /^fmp4-\d+\.m4s/.exec(uris.at(-1)!)![0];
      expect((await getText(`${base()}/${fragment}?token=bad`)).status).toBe(403);
      expect((await getBytes(`${base()}/${fragment}?token=good`)).subarray(4, 8).toString()).toBe('styp');
    } finally {
      await modifyConfig(server, { streams: { cam: { auth: null } } });
    }
  });

  it('answers 404 with a reason for a fragment or init the stream does not have', async () => {
    const missing = await fetch(`${base()}/fmp4-1.m4s`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toMatch(/fragment 1 of cam/);
    expect((await fetch(`${base()}/fmp4-init-00000000.mp4`)).status).toBe(404);
    expect((await streamStats(server, 'cam')).alive).toBe(true);
  });
});

/** ffprobe's video decode times of a file or of TS bytes, in 90 kHz ticks. */
function videoDts(input: string | Buffer): number[] {
  const args = ['-v', 'error', '-of', 'json', '-select_streams', 'v', '-show_entries', 'packet=dts'];
  const fromBytes = typeof input !== 'string';
  const result = spawnSync('ffprobe', [...args, '-i', fromBytes ? 'pipe:0' : input], {
    input: fromBytes ? input : undefined,
    maxBuffer: 32 * 1024 * 1024,
  });
  return (JSON.parse(result.stdout.toString()) as { packets: { dts: number }[] }).packets.map((p) => p.dts);
}
