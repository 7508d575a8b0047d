import { once } from 'node:events';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, probeStreams, streamStats } from './media-helpers.js';
import { type WebrtcClient, webrtcPublisher } from './webrtc-client.js';

/** WebRTC publishing (spec 001 §2 publishing block, §7): VP8/Opus in, H.264/AAC HLS out. */
describe('WebRTC publish', () => {
  let server: RunningServer;
  const clients: WebrtcClient[] = [];

  beforeAll(async () => {
    server = await startServer({
      config:
        `${minimalConfig}live live {\n  source_timeout 2;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n` +
        `stream pulled {\n  url udp://127.0.0.1:9;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await server?.cleanup();
  });

  const publish = async (path: string) => {
    const client = await webrtcPublisher(`${server.url.replace(/^http/, 'ws')}/webrtc/publish/${path}`);
    clients.push(client);
    return client;
  };

  it('publishes into a stream with its password, plays as H.264/AAC HLS, and ends with the socket', async () => {
    const client = await publish('cam?password=s3cret');
    expect((await client.reply).type).toBe('answer');
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'cam');
      return s.alive && s.media_info?.tracks.length === 2 ? s : undefined;
      // Two encoders (the client's VP8, the server's H.264) on a machine that may be loaded.
    }, 60_000);
    expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'webrtc' });
    await waitFor(async () => (await getText(`${server.url}/cam/index.m3u8`)).status === 200, 15_000);
    const streams = probeStreams(`${server.url}/cam/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(streams.find((s) => s.codec_name === 'h264')?.width).toBe(320);

    await client.stop();
    await waitFor(async () => (await streamStats(server, 'cam')).published_from === undefined, 15_000);
    expect(server.output()).toMatch(/webrtc publish cam from 127\.0\.0\.1 ended: the socket closed/);
  }, 120_000);

  it('creates a published stream in a location', async () => {
    const client = await publish('live/web');
    expect((await client.reply).type).toBe('answer');
    await waitFor(async () => (await streamStats(server, 'live/web', 'live')).alive, 30_000);
    await client.stop();
  }, 60_000);

  it('takes a publisher that stops answering for 1.5 s in the DTLS handshake (a loaded machine)', async () => {
    // The server was the DTLS client: its ClientHello, retransmitted after 0.5 s unanswered, got
    // two HelloVerifyRequests, on which werift fails the handshake: "peer connection failed" at
    // once, and the publish never went live. The server is now the DTLS server (a=setup:passive).
    const client = await webrtcPublisher(`${server.url.replace(/^http/, 'ws')}/webrtc/publish/live/stalled`, {
      stallAtIceMs: 1500,
    });
    clients.push(client);
    expect((await client.reply).type).toBe('answer');
    await waitFor(async () => (await streamStats(server, 'live/stalled', 'live')).alive, 60_000);
    expect(server.output()).not.toMatch(/webrtc publish live\/stalled .*peer connection failed/);
    await client.stop();
  }, 90_000);

  it('refuses what RTMP refuses: a wrong password, a stream that does not take publishing', async () => {
    // Refused before any peer connection or ffmpeg (routing and password are checked at the
    // offer); the socket closes with 1008.
    const wrong = await publish('cam?password=nope');
    expect(await wrong.closed).toBe(1008);
    expect(wrong.replies.at(-1)).toEqual({ type: 'error', message: 'wrong or missing password' });
    const pulled = await publish('pulled');
    expect(await pulled.closed).toBe(1008);
    expect(pulled.replies.at(-1)).toEqual({
      type: 'error',
      message: 'stream pulled does not accept publishing',
    });
    // One WebRTC publish of a stream is set up at a time: a second offer is refused before any work.
    const first = await publish('cam?password=s3cret');
    expect((await first.reply).type).toBe('answer');
    const second = await publish('cam?password=s3cret');
    expect(await second.reply).toEqual({ type: 'error', message: 'cam is already being published' });
    await first.stop();
    const bad = new WebSocket(`${server.url.replace(/^http/, 'ws')}/webrtc/publish/cam`);
    bad.once('open', () => bad.send('not an offer'));
    const [message] = (await once(bad, 'message')) as [Buffer];
    expect(JSON.parse(message.toString())).toEqual({
      type: 'error',
      message: 'expected {"type":"offer","sdp":"…"}',
    });
  }, 60_000);
});
