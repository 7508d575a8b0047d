import { describe, expect, it } from 'vitest';
import { playbackUrls } from './output-urls.js';

const ports = { http: 'http://h:80' };

describe('HLS playback urls: fMP4 and LL-HLS', () => {
  it('lists fMP4 HLS and LL-HLS beside the TS playlists', () => {
    expect(playbackUrls('live/a b', 'h', ports).hls).toEqual([
      'http://h:80/live/a%20b/index.m3u8',
      'http://h:80/live/a%20b/video.m3u8',
      'http://h:80/live/a%20b/index.fmp4.m3u8',
      'http://h:80/live/a%20b/index.ll.m3u8',
    ]);
  });

  it('offers neither for a drm aes128 stream: the server serves it as TS HLS only', () => {
    expect(playbackUrls('a', 'h', ports, { encrypted: true }).hls).toEqual([
      'http://h:80/a/index.m3u8',
      'http://h:80/a/video.m3u8',
    ]);
  });
});
