import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, probeStreams, streamStats } from './media-helpers.js';

/** The built-in test source, on-demand streams, stream_restart, and a source that never connects. */
describe('test source and stream lifecycle', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
  });
  afterAll(() => server?.cleanup());

  it('plays the test pattern with its tone: H.264 yuv420p and AAC, over HLS', async () => {
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
    const streams = probeStreams(`${server.url}/demo/index.m3u8`);
    expect(streams).toMatchObject([
      { codec_name: 'h264', width: 320, pix_fmt: 'yuv420p' },
      { codec_name: 'aac' },
    ]);
    const info = (await (await server.api('/flussonic/api/media_info/demo')).json()) as {
      width: number;
      tracks: unknown[];
    };
    expect(info).toMatchObject({ width: 320, height: 180 });
    expect(info.tracks).toEqual([
      expect.objectContaining({ track_id: 'v1', codec: 'h264', fps: 25, profile: 'High' }),
      expect.objectContaining({ track_id: 'a1', codec: 'aac', sample_rate: 48000, channels: 2 }),
    ]);
  });

  it('serves the embed player page and the hls.js it loads', async () => {
    const page = await getText(`${server.url}/demo/embed.html?version=3&autoplay=true&token=t1`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('const source = "index.m3u8?token=t1";');
    expect(page.text).toContain('autoplay muted');
    const script = await fetch(`${server.url}/embed/hls.min.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it('serves DASH: a live MPD with fragmented-MP4 segments that ffprobe reads', async () => {
    const manifest = await getText(`${server.url}/demo/index.mpd`);
    expect(manifest.status).toBe(200);
    expect(manifest.text).toContain('type="dynamic"');
    expect(manifest.text).toMatch(/codecs="avc1\.[0-9a-f]{6}"/);
    expect(manifest.text).toContain('codecs="mp4a.40.2"');
    const streams = probeStreams(`${server.url}/demo/index.mpd`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });

  it('makes a preview picture once thumbnails are enabled, without restarting the stream', async () => {
    const before = await streamStats(server, 'demo');
    await modifyConfig(server, { streams: { demo: { thumbnails: { enabled: true } } } });
    const jpeg = await waitFor(async () => {
      const response = await fetch(`${server.url}/demo/preview.jpg`);
      return response.ok ? Buffer.from(await response.arrayBuffer()) : undefined;
    }, 15_000);
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(probeStreams(jpeg)).toMatchObject([{ codec_name: 'mjpeg', width: 320 }]);
    expect((await streamStats(server, 'demo')).start_running_at).toBe(before.start_running_at);
  });

  it('restarts the stream on stream_restart: the source starts over and playback continues', async () => {
    const restart = await server.api('/flussonic/api/stream_restart/demo', { method: 'POST' });
    expect(restart.status).toBe(200);
    // The restarted encoder's clock starts again: the playlist marks the discontinuity.
    await waitFor(
      async () => (await getText(`${server.url}/demo/video.m3u8`)).text.includes('#EXT-X-DISCONTINUITY'),
      15_000,
    );
    expect((await streamStats(server, 'demo')).alive).toBe(true);
    expect((await server.api('/flussonic/api/stream_restart/none', { method: 'POST' })).status).toBe(404);
  });

  it('starts an on-demand stream on its first client and stops it after clients_timeout', async () => {
    await modifyConfig(server, {
      streams: { lazy: { urls: [{ url: 'test://?size=320x180&bitrate=300' }], clients_timeout: 2 } },
    });
    // Configured, not yet asked for: not running (a stream that never ran shows no figures at all).
    expect((await streamStats(server, 'lazy')).running).toBeUndefined();
    // The first request starts the stream and waits up to 10 s for a segment; on a loaded machine the
    // encoder may need longer, and a player asks again, as this does.
    const master = await waitFor(async () => {
      const answer = await getText(`${server.url}/lazy/index.m3u8?token=viewer1`);
      return answer.status === 200 ? answer : undefined;
    }, 30_000);
    expect(master.text).toContain('video.m3u8?token=viewer1');
    const playing = await streamStats(server, 'lazy');
    expect(playing).toMatchObject({ running: true });
    await waitFor(async () => (await streamStats(server, 'lazy')).client_count === 1);
    // No more requests: the stream stops on its own.
    const stopped = await waitFor(async () => {
      const s = await streamStats(server, 'lazy');
      return s.running === false ? s : undefined;
    }, 15_000);
    expect(stopped.alive).toBe(false);
  });

  it('shows the error of a source that never connects, and a growing retry count', async () => {
    await modifyConfig(server, {
      streams: { dead: { urls: [{ url: 'rtmp://127.0.0.1:1/live/none' }], static: true, source_timeout: 1 } },
    });
    const first = await waitFor(async () => {
      const s = await streamStats(server, 'dead');
      return (s.retry_count ?? 0) >= 1 ? s : undefined;
    }, 15_000);
    expect(first.source_error).toMatch(/^rtmp:\/\/127\.0\.0\.1:1\/live\/none: /);
    expect(first.alive).toBe(false);
    await waitFor(
      async () => ((await streamStats(server, 'dead')).retry_count ?? 0) > first.retry_count!,
      15_000,
    );
  });
});
