import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from './events-client.js';
import { basicAuth, freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import {
  getBytes,
  getText,
  mediaSequence,
  probeStreams,
  segmentUris,
  startsWithKeyframe,
  streamStats,
  udpSender,
} from './media-helpers.js';

/** A headend's MPEG-TS over UDP, packaged to HLS by the server and read back by ffprobe. */
describe('a UDP source played as HLS', () => {
  let server: RunningServer;
  let sender: { stop: () => Promise<void> };
  let base: string;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    sender = udpSender(port);
    server = await startServer({
      config: `${minimalConfig}stream udp/one {\n  url udp://127.0.0.1:${port};\n  static true;\n  segment_count 3;\n}\n`,
    });
    base = `${server.url}/udp/one`;
  });
  afterAll(async () => {
    await sender?.stop();
    await server?.cleanup();
  });

  it('serves a master playlist that ffprobe plays: H.264 320x240 and AAC', async () => {
    const master = await waitFor(async () => {
      const r = await getText(`${base}/index.m3u8`);
      return r.status === 200 ? r.text : undefined;
    }, 20_000);
    expect(master).toMatch(
      /#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2",RESOLUTION=320x240\nvideo\.m3u8\n/,
    );
    const streams = probeStreams(`${base}/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(streams.find((s) => s.codec_name === 'h264')?.width).toBe(320);
  });

  it('cuts segments at keyframes, each playable alone', async () => {
    const playlist = (await getText(`${base}/video.m3u8`)).text;
    const uris = segmentUris(playlist);
    expect(uris.length).toBeGreaterThan(0);
    for (const uri of uris) {
      const segment = await getBytes(`${base}/${uri}`);
      expect(segment[0]).toBe(0x47);
      expect(startsWithKeyframe(segment)).toBe(true);
    }
    for (const d of playlist.matchAll(/#EXTINF:([\d.]+),/g))
      expect(Math.abs(Number(d[1]) - 2)).toBeLessThan(0.1);
  });

  it('rolls the playlist: the media sequence moves on and old segments leave', async () => {
    const first = (await getText(`${base}/video.m3u8`)).text;
    const later = await waitFor(async () => {
      const text = (await getText(`${base}/video.m3u8`)).text;
      return mediaSequence(text) > mediaSequence(first) ? text : undefined;
    }, 15_000);
    expect(segmentUris(later)).toHaveLength(3);
    expect(segmentUris(later)[0]).not.toBe(segmentUris(first)[0]);
  });

  it('shows the stream alive with measured figures in read_config and over the websocket', async () => {
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'udp/one');
      return s.alive && (s.client_count ?? 0) > 0 ? s : undefined;
    });
    expect(stats).toMatchObject({ running: true, url: `udp://127.0.0.1:${port}`, retry_count: 0 });
    expect(stats.bitrate).toBeGreaterThan(50);
    expect(stats.ts_delay).toBeLessThan(2000);
    expect(stats.input_error_rate).toBe(0);
    expect(stats.bytes_out).toBeGreaterThan(0);
    expect(stats.media_info?.tracks.map((t) => [t.content, t.codec])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    const events = await EventsClient.open(`${server.url}/flussonic/api/events`, {
      authorization: basicAuth(),
    });
    try {
      await events.request('read_config', 'current_config');
      const delta = await waitFor(async () => {
        const event = await events.request('read_config_delta', 'current_config_delta');
        const data = event.data as { streams?: Record<string, { stats?: { bytes_in?: number } }> };
        return data.streams?.['udp/one']?.stats?.bytes_in;
      });
      expect(delta).toBeGreaterThan(stats.bytes_in!);
    } finally {
      events.close();
    }
  });

  it('serves continuous MPEG-TS starting at a keyframe', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/mpegts`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('video/mp2t');
    const reader = response.body!.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    while (size < 200_000) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
    }
    controller.abort();
    const data = Buffer.concat(parts);
    expect(startsWithKeyframe(data)).toBe(true);
    expect(
      probeStreams(data)
        .map((s) => s.codec_name)
        .sort(),
    ).toEqual(['aac', 'h264']);
  });
});
