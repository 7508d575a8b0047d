import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientSession } from '@sluice/api';
import { startAuthBackend, type TestBackend } from './auth-helpers.js';
import { EventsClient } from './events-client.js';
import { basicAuth, freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig, probeStreams, stopChild, streamStats, testEncoderArgs } from './media-helpers.js';
import { ffmpegPlay, framesDecoded, RawRtsp, request, run } from './rtsp-helpers.js';

/** RTSP publish and play on the `rtsp` port with clients nobody here wrote: ffmpeg and GStreamer. */
describe('RTSP server with ffmpeg and GStreamer', () => {
  let server: RunningServer;
  let backend: TestBackend;
  let events: EventsClient;
  let rtsp: string;
  let port: number;
  const children: ReturnType<typeof spawn>[] = [];

  beforeAll(async () => {
    port = await freePort();
    rtsp = `rtsp://127.0.0.1:${port}`;
    backend = await startAuthBackend(['good']);
    server = await startServer({
      config:
        `${minimalConfig}rtsp ${port};\n` +
        `live live {\n  source_timeout 2;\n}\n` +
        `stream t {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n` +
        // An RTSP source read from this very server: RTP over UDP, the second track (audio) only.
        `stream relay {\n  url ${rtsp}/static/t rtp=udp tracks=2;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 't')).alive, 30_000);
    // The listener opens once the config is applied: wait until it answers.
    await waitFor(async () => {
      const raw = await RawRtsp.open(port).catch(() => undefined);
      raw?.write(request('OPTIONS', `${rtsp}/static/t`, 1));
      const answered = raw && (await waitFor(() => raw.text.includes('200 OK') || raw.closed, 5000));
      raw?.destroy();
      return answered && raw.text.includes('200 OK');
    });
    events = await EventsClient.open(`${server.url}/flussonic/api/events`, { authorization: basicAuth() });
  }, 60_000);
  afterAll(async () => {
    events?.close();
    await Promise.all(children.map((c) => stopChild(c)));
    await server?.cleanup();
    await backend?.close();
  });

  const publisher = (url: string) => {
    const child = spawn('ffmpeg', [...testEncoderArgs(), '-f', 'rtsp', url], { stdio: 'ignore' });
    children.push(child);
    return child;
  };

  it('ffmpeg publishes into a location (RTP over UDP) and the stream plays as HLS with H.264 and AAC', async () => {
    const child = publisher(`${rtsp}/live/x`);
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'live/x', 'live');
      return s.alive && (s.bitrate ?? 0) > 0 ? s : undefined;
    }, 30_000);
    expect(stats).toMatchObject({ published_via: 'rtsp', published_from: '127.0.0.1', url: 'publish://' });
    const streams = probeStreams(`${server.url}/live/x/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    await stopChild(child);
  }, 60_000);

  it('refuses a publish with a wrong password (403, logged) and takes the right one over TCP', async () => {
    const wrong = await run('ffmpeg', [
      ...testEncoderArgs(),
      ...['-t', '5', '-f', 'rtsp', '-rtsp_transport', 'tcp', `${rtsp}/static/cam?password=nope`],
    ]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toContain('403 Forbidden');
    expect(server.output()).toMatch(
      /rtsp ANNOUNCE from 127\.0\.0\.1 answered 403: publish cam refused: wrong or missing password/,
    );
    const child = spawn(
      'ffmpeg',
      [...testEncoderArgs(), '-f', 'rtsp', '-rtsp_transport', 'tcp', `${rtsp}/static/cam?password=s3cret`],
      { stdio: 'ignore' },
    );
    children.push(child);
    await waitFor(async () => (await streamStats(server, 'cam')).alive, 30_000);
    expect((await streamStats(server, 'cam')).published_via).toBe('rtsp');
    await stopChild(child);
  }, 60_000);

  it('ffmpeg plays over TCP and over UDP, decoding frames; each viewer is an rtsp session', async () => {
    const [tcp, udp] = await Promise.all([
      ffmpegPlay(`${rtsp}/static/t`, 'tcp'),
      ffmpegPlay(`${rtsp}/static/t`, 'udp'),
    ]);
    expect(tcp.code, tcp.output).toBe(0);
    expect(udp.code, udp.output).toBe(0);
    expect(framesDecoded(tcp.output)).toBe(25);
    expect(framesDecoded(udp.output)).toBe(25);
    expect(tcp.output).toMatch(/Stream #0:0: Video: h264/);
    expect(tcp.output).toMatch(/Stream #0:1: Audio: aac/);
    const sessions = (
      (await events.request('sessions?name=t', 'sessions')) as unknown as { sessions: ClientSession[] }
    ).sessions;
    expect(sessions.filter((s) => s.type === 'rtsp').length).toBeGreaterThanOrEqual(1);
    expect(sessions.find((s) => s.type === 'rtsp')!.bytes_sent).toBeGreaterThan(10_000);
  }, 60_000);

  it('GStreamer plays (rtspsrc, TCP and UDP, decoding) and publishes (rtspclientsink)', async () => {
    const play = (protocols: string) =>
      run('gst-launch-1.0', [
        ...['-q', 'rtspsrc', `location=${rtsp}/static/t`, `protocols=${protocols}`, '!', 'rtph264depay'],
        ...['!', 'h264parse', '!', 'avdec_h264', '!', 'fakesink', 'num-buffers=25'],
      ]);
    const [tcp, udp] = await Promise.all([play('tcp'), play('udp')]);
    expect(tcp.code, tcp.output).toBe(0);
    expect(udp.code, udp.output).toBe(0);

    // rtspclientsink takes encoded media: an H.264/AAC TS file made by ffmpeg, published in real time.
    const file = `${server.dir}/gst-source.ts`;
    await run('ffmpeg', [...testEncoderArgs().filter((a) => a !== '-re'), '-t', '20', '-f', 'mpegts', file]);
    const child = spawn(
      'gst-launch-1.0',
      [
        ...['-q', 'filesrc', `location=${file}`, '!', 'tsdemux', 'name=d'],
        ...['d.', '!', 'queue', '!', 'h264parse', '!', 's.', 'd.', '!', 'queue', '!', 'aacparse', '!', 's.'],
        ...['rtspclientsink', 'name=s', `location=${rtsp}/live/gst`, 'protocols=tcp'],
      ],
      { stdio: 'ignore' },
    );
    children.push(child);
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'live/gst', 'live');
      return s.alive && s.media_info?.tracks.length === 2 ? s : undefined;
    }, 30_000);
    expect(stats.published_via).toBe('rtsp');
    expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
    await stopChild(child);
  }, 90_000);

  it('an RTSP source honours rtp=udp and tracks: the relay of this server carries the audio track only', async () => {
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'relay');
      return s.alive && s.media_info?.tracks.length ? s : undefined;
    }, 30_000);
    expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['aac']);
    // The source's ffmpeg was asked for RTP over UDP.
    const cmdlines = await Promise.all(
      (await readdir('/proc'))
        .filter((p) => /^\d+$/.test(p))
        .map((p) => readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')),
    );
    const relay = cmdlines.find((c) => c.includes(`${rtsp}/static/t`) && c.startsWith('ffmpeg'));
    expect(relay?.split('\0').join(' ')).toContain('-rtsp_transport udp');
  }, 60_000);

  it('play authorization: a refused token gets 403 and a log line, an allowed one plays', async () => {
    await modifyConfig(server, { streams: { t: { auth: { url: backend.url } } } });
    const denied = await ffmpegPlay(`${rtsp}/static/t?token=bad`, 'tcp', 5);
    expect(denied.code).not.toBe(0);
    expect(denied.output).toContain('403 Forbidden');
    expect(server.output()).toMatch(
      /rtsp DESCRIBE from 127\.0\.0\.1 answered 403: play of t refused: access denied/,
    );
    const allowed = await ffmpegPlay(`${rtsp}/static/t?token=good`, 'tcp', 5);
    expect(allowed.code, allowed.output).toBe(0);
  }, 60_000);
});
