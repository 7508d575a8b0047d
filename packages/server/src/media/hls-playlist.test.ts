import { parse as parseHls, setOptions as setHlsOptions } from 'hls-parser';
import { describe, expect, it } from 'vitest';
import { masterPlaylist, mediaPlaylist } from './hls-playlist.js';

describe('HLS playlists', () => {
  it('lists the variant with its peak and average bandwidth, codecs and resolution', () => {
    expect(
      masterPlaylist([
        {
          uri: 'video.m3u8?token=a',
          bandwidth: 1_234_567.2,
          averageBandwidth: 1_000_000.4,
          codecs: ['avc1.64001e', 'mp4a.40.2'],
          resolution: { width: 640, height: 360 },
        },
      ]),
    ).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1234568,AVERAGE-BANDWIDTH=1000000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360\nvideo.m3u8?token=a\n',
    );
  });

  it('carries the discontinuity sequence once discontinuities left the window', () => {
    const text = mediaPlaylist({
      segments: [{ sequence: 7, durationMs: 1960, discontinuity: true }],
      targetDurationS: 2,
      discontinuitySequence: 3,
      query: '',
    });
    expect(text).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-DISCONTINUITY-SEQUENCE:3\n#EXT-X-DISCONTINUITY\n#EXTINF:1.960,\nseg-7.ts\n',
    );
  });

  it('lists an outage as EXT-X-GAP segments numbered before the segment that follows it', () => {
    const text = mediaPlaylist({
      segments: [
        { sequence: 7, durationMs: 2000, discontinuity: false, gapsBeforeMs: [900] },
        { sequence: 10, durationMs: 1000, discontinuity: true, gapsBeforeMs: [1500, 1500] },
      ],
      targetDurationS: 2,
      discontinuitySequence: 0,
      query: '?token=a',
    });
    // The first segment's own gap precedes the window: not listed, MEDIA-SEQUENCE is its number.
    expect(text).toBe(
      '#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:2.000,\nseg-7.ts?token=a\n' +
        '#EXTINF:1.500,\n#EXT-X-GAP\nseg-8.ts?token=a\n#EXTINF:1.500,\n#EXT-X-GAP\nseg-9.ts?token=a\n' +
        '#EXT-X-DISCONTINUITY\n#EXTINF:1.000,\nseg-10.ts?token=a\n',
    );
    // EXT-X-GAP is a version 8 tag: a strict parser refuses it under the version 3 of a gapless window.
    setHlsOptions({ strictMode: true, silent: true });
    expect(() => parseHls(text)).not.toThrow();
    expect(() => parseHls(text.replace('VERSION:8', 'VERSION:3'))).toThrow(/version/i);
  });
});
