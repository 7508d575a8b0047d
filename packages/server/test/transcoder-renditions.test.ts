import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, probeStreams, streamStats } from './media-helpers.js';
import { variantSegments, videoBitsPerSecond } from './transcoder-helpers.js';

const RENDITIONS = [
  { key: '0', bitrate: 1_500_000, width: 1280, height: 720 },
  { key: '1', bitrate: 500_000, width: 640, height: 360 },
];

/** A 720p test source transcoded to 720p and 360p (spec 001 §3 Transcoder settings). */
describe('transcoder renditions', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream tv {
  url test://?size=1280x720&bitrate=2500;
  static true;
  transcoder {
    global { hw cpu; }
    audio { bitrate 64000; codec aac; }
    video {
      0 { bitrate 1500000; codec h264; size { width -1; height 720; } }
      1 { bitrate 500000; codec h264; size { width -1; height 360; } }
    }
  }
}
`,
    });
  });
  afterAll(() => server?.cleanup());

  it('lists a variant per video track in the master playlist, each playing at its size', async () => {
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'tv');
      // Both renditions listed with their sizes: a track is listed before its first frame tells its size.
      const videos = s.media_info?.tracks.filter((t) => t.content === 'video') ?? [];
      return s.running_transcoder && videos.length === 2 && videos.every((t) => t.width && t.height)
        ? s
        : undefined;
    }, 60_000);
    expect(
      stats.media_info?.tracks.map((t) => [t.track_id, t.codec, t.width ?? null, t.height ?? null]),
    ).toEqual([
      ['v1', 'h264', 1280, 720],
      ['v2', 'h264', 640, 360],
      ['a1', 'aac', null, null],
    ]);
    const master = await getText(`${server.url}/tv/index.m3u8`);
    expect(master.status).toBe(200);
    expect(master.text).toMatch(
      /#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2",RESOLUTION=1280x720\ntracks-v1\/video\.m3u8\n/,
    );
    expect(master.text).toMatch(
      /#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2",RESOLUTION=640x360\ntracks-v2\/video\.m3u8\n/,
    );
    const videos = probeStreams(`${server.url}/tv/index.m3u8`)
      .filter((s) => s.codec_name === 'h264')
      .map((s) => [s.width, (s as { height?: number }).height]);
    expect(videos.sort((a, b) => a[0]! - b[0]!)).toEqual([
      [640, 360],
      [1280, 720],
    ]);
  });

  it('encodes each variant at its configured bitrate (within 20%, over 8 s of segments)', async () => {
    for (const r of RENDITIONS) {
      const n = Number(r.key) + 1;
      const segments = await variantSegments(`${server.url}/tv/tracks-v${n}/video.m3u8`, 4, 2);
      expect(probeStreams(segments).find((s) => s.codec_name === 'h264')?.width).toBe(r.width);
      const measured = videoBitsPerSecond(segments);
      expect(measured, `variant ${n}: ${Math.round(measured)} bit/s`).toBeGreaterThan(r.bitrate * 0.8);
      expect(measured, `variant ${n}: ${Math.round(measured)} bit/s`).toBeLessThan(r.bitrate * 1.2);
    }
  });

  it('serves every rendition and the audio in /mpegts, one program per rendition', async () => {
    const response = await fetch(`${server.url}/tv/mpegts`);
    const reader = response.body!.getReader();
    const parts: Uint8Array[] = [];
    let bytes = 0;
    while (bytes < 1_500_000) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      bytes += value.length;
    }
    await reader.cancel();
    const streams = probeStreams(Buffer.concat(parts));
    expect(streams.map((s) => [s.codec_name, s.width ?? null]).sort()).toEqual([
      ['aac', null],
      ['h264', 1280],
      ['h264', 640],
    ]);
  });

  it('stops the transcoder when the transcoder settings are emptied, and plays the source as it is', async () => {
    const response = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streams: { tv: { transcoder: null } } }),
    });
    expect(response.status).toBe(200);
    await waitFor(async () => {
      const s = await streamStats(server, 'tv');
      return s.running_transcoder === undefined && s.alive;
    }, 30_000);
    const master = await waitFor(async () => {
      const answer = await getText(`${server.url}/tv/index.m3u8`);
      return answer.status === 200 ? answer : undefined;
    }, 30_000);
    expect(master.text).toContain('RESOLUTION=1280x720\nvideo.m3u8\n');
    expect(master.text).not.toContain('tracks-v');
  });
});
