import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig, probeStreams, rtmpPublisher, streamStats } from './media-helpers.js';

/** RTMP publishing into a location and into a configured stream (spec 000 §3 Location, §4 Publishing). */
describe('RTMP publish', () => {
  let server: RunningServer;
  let rtmp: string;
  const publishers: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    rtmp = `rtmp://127.0.0.1:${port}`;
    server = await startServer({
      config:
        `${minimalConfig}rtmp ${port};\n` +
        `live live {\n  source_timeout 2;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(publishers.map((p) => p.stop()));
    await server?.cleanup();
  });

  const publish = (path: string) => {
    const publisher = rtmpPublisher(`${rtmp}/${path}`);
    publishers.push(publisher);
    return publisher;
  };

  it('creates the published stream in its location, with stats, playable as HLS', async () => {
    const publisher = publish('live/x');
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'live/x', 'live');
      return s.alive && (s.bitrate ?? 0) > 0 ? s : undefined;
    }, 20_000);
    expect(stats).toMatchObject({
      running: true,
      published_from: '127.0.0.1',
      published_via: 'rtmp',
      url: 'publish://',
    });
    expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
    const streams = probeStreams(`${server.url}/live/x/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    // The server's totals count the published stream too (the configured one waits: not online).
    await waitFor(async () => {
      const { stats: totals } = (await (await server.api('/flussonic/api/read_config')).json()) as {
        stats: { total_streams: number; online_streams: number };
      };
      return totals.total_streams === 2 && totals.online_streams === 1;
    });

    await publisher.stop();
    // Gone once no publisher came back for the location's source_timeout (2 s).
    await waitFor(async () => {
      const live = (
        (await (await server.api('/flussonic/api/read_config')).json()) as {
          lives: Record<string, { streams?: object }>;
        }
      ).lives.live;
      return live !== undefined && !('live/x' in (live.streams ?? {}));
    }, 15_000);
  });

  it('remuxes in process what it can (H.264, AAC) and hands other codecs (MP3) to ffmpeg', async () => {
    const publisher = rtmpPublisher(`${rtmp}/live/mp3`, 'libmp3lame');
    publishers.push(publisher);
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'live/mp3', 'live');
      return s.alive && s.media_info?.tracks.length === 2 ? s : undefined;
    }, 20_000);
    expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'mp3']);
    await publisher.stop();
  });

  it('waits for a publisher without showing an error, and refuses a wrong password', async () => {
    const waiting = await waitFor(async () => {
      const s = await streamStats(server, 'cam');
      return s.running ? s : undefined;
    });
    expect(waiting).toMatchObject({ alive: false, retry_count: 0 });
    expect(waiting.source_error).toBeUndefined();
    const intruder = publish('static/cam?password=wrong');
    expect(await intruder.exited).not.toBe(0);
    expect((await streamStats(server, 'cam')).published_from).toBeUndefined();
  });

  it('takes a publisher with the right password into the configured stream', async () => {
    publish('static/cam?password=s3cret');
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'cam');
      return s.alive ? s : undefined;
    }, 20_000);
    expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'rtmp', retry_count: 0 });
  });

  it('plays the stream over RTMP at /static/NAME, counted as a client', async () => {
    const streams = probeStreams(`${rtmp}/static/cam`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(streams.find((s) => s.codec_name === 'h264')?.width).toBe(320);
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'cam');
      return (s.bytes_out ?? 0) > 0 ? s : undefined;
    });
    expect(stats.bytes_out).toBeGreaterThan(10_000);
  });

  it('pushes a stream to each push url, retrying the ones that fail', async () => {
    const good = `${rtmp}/live/pushed`;
    const bad = 'rtmp://127.0.0.1:1/nowhere/x';
    await modifyConfig(server, {
      streams: {
        src: {
          urls: [{ url: 'test://?size=320x180&bitrate=300' }],
          static: true,
          pushes: [{ url: good }, { url: bad }],
        },
      },
    });
    // The push publishes into this server's own location: the pushed stream appears there, alive.
    const pushed = await waitFor(async () => {
      const s = await streamStats(server, 'live/pushed', 'live');
      return s.alive ? s : undefined;
    }, 25_000);
    expect(pushed.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'src');
      return (s.pushes?.[1]?.retries ?? 0) >= 1 ? s : undefined;
    }, 15_000);
    expect(stats.pushes?.[0]).toMatchObject({ url: good, status: 'running', retries: 0 });
    expect(stats.pushes?.[0]?.bytes).toBeGreaterThan(0);
    expect(stats.pushes?.[1]).toMatchObject({ url: bad });
    expect(stats.pushes?.[1]?.error).toMatch(/exited with code/);
  });

  it('asks the on_publish handler on start (it may refuse) and tells it of the stop', async () => {
    const calls: { event: string; name: string; query: Record<string, string> }[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const call = JSON.parse(body) as (typeof calls)[number];
        calls.push(call);
        const refuse = call.event === 'publish_start' && call.query.key !== 'good';
        res.writeHead(refuse ? 403 : 200).end(refuse ? 'bad key' : 'ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    try {
      await modifyConfig(server, {
        streams: { guarded: { publish_enabled: true, static: true, on_publish: hookUrl } },
      });
      await waitFor(async () => (await streamStats(server, 'guarded')).running);
      const refused = publish('static/guarded?key=bad');
      expect(await refused.exited).not.toBe(0);
      expect(calls[0]).toMatchObject({ event: 'publish_start', name: 'guarded', query: { key: 'bad' } });
      const allowed = publish('static/guarded?key=good');
      // Taken by the server: the handler was asked for this publisher. The stream's stats alone are
      // no sign of it: they still say alive from the refused publisher's first second of data.
      await waitFor(() => calls.some((c) => c.event === 'publish_start' && c.query.key === 'good'));
      await waitFor(async () => (await streamStats(server, 'guarded')).alive, 20_000);
      await allowed.stop();
      // Generous: on a loaded 2-core machine the server may take a while to see the socket close.
      await waitFor(() => calls.some((c) => c.event === 'publish_stop' && c.query.key === 'good'), 20_000);
    } finally {
      hook.close();
    }
  });

  it('refuses a publish that no stream or location accepts', async () => {
    expect(await publish('nowhere/x').exited).not.toBe(0);
  });
});
