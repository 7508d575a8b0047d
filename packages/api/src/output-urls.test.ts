import { describe, expect, it } from 'vitest';
import { fileOutputUrls, playbackUrls, publishUrls } from './output-urls.js';

const ports = { http: 'http://h:80', rtmp: 1935 };

describe('playback urls', () => {
  it('follows the URL shapes, RTMP only with its port', () => {
    const urls = playbackUrls('a', 'h', ports);
    expect(urls.hls?.slice(0, 2)).toEqual(['http://h:80/a/index.m3u8', 'http://h:80/a/video.m3u8']);
    expect(urls.dash).toEqual(['http://h:80/a/index.mpd']);
    expect(urls.rtmp).toEqual(['rtmp://h:1935/static/a']);
    expect(urls.rtsp).toBeUndefined();
  });

  it("plays a name with a slash (a published stream) without 'static/'", () => {
    expect(playbackUrls('live/cam1', 'h', ports).rtmp).toEqual(['rtmp://h:1935/live/cam1']);
  });

  it('offers RTSP host/name with the RTSP port (spec 001 §9), none without one', () => {
    expect(playbackUrls('a', 'h', { ...ports, rtsp: 554 }).rtsp).toEqual(['rtsp://h:554/a']);
    expect(playbackUrls('live/cam 1', 'h', { ...ports, rtsp: 8554 }).rtsp).toEqual([
      'rtsp://h:8554/live/cam%201',
    ]);
  });

  it('offers Smooth Streaming at {name}.isml/manifest', () => {
    expect(playbackUrls('live/a', 'h', ports).mss).toEqual(['http://h:80/live/a.isml/manifest']);
  });
});

describe('publish urls', () => {
  it('offers RTSP host/name with its port and the password, the prefix before a plain name', () => {
    const withRtsp = { ...ports, rtsp: 554 };
    expect(publishUrls('a', { password: 'pw' }, 'h', withRtsp)).toContainEqual({
      label: 'RTSP',
      url: 'rtsp://h:554/a?password=pw',
    });
    expect(publishUrls('live/a', {}, 'h', withRtsp).find((u) => u.label === 'RTSP')?.url).toBe(
      'rtsp://h:554/live/a',
    );
    expect(publishUrls('a', { prefix: 'cams' }, 'h', withRtsp).find((u) => u.label === 'RTSP')?.url).toBe(
      'rtsp://h:554/cams/a',
    );
    expect(publishUrls('a', {}, 'h', ports).map((u) => u.label)).not.toContain('RTSP');
  });

  it("uses the 'static' prefix only without a slash and without a prefix", () => {
    expect(publishUrls('a', {}, 'h', ports)[0]?.url).toBe('rtmp://h:1935/static/a');
    expect(publishUrls('live/a', {}, 'h', ports)[0]?.url).toBe('rtmp://h:1935/live/a');
    expect(publishUrls('a', { prefix: 'cams' }, 'h', ports)[0]?.url).toBe('rtmp://h:1935/cams/a');
  });

  it("appends '?password=' when a password is set", () => {
    const urls = publishUrls('a', { password: 'pw' }, 'h', ports);
    expect(urls.map((u) => u.url)).toEqual([
      'rtmp://h:1935/static/a?password=pw',
      'http://h:80/a/mpegts?password=pw',
    ]);
  });

  it('offers RTMP with its port and HTTP(S) MPEG-TS on the console origin', () => {
    expect(publishUrls('a', {}, 'h', ports).map((u) => u.label)).toEqual(['RTMP', 'HTTP MPEG-TS']);
    expect(publishUrls('live/a b', {}, 'h', { http: 'https://h' })).toEqual([
      { label: 'HTTPS MPEG-TS', url: 'https://h/live/a%20b/mpegts' },
    ]);
  });
});

describe('VOD file urls', () => {
  it('lists HLS, DASH, MPEG-TS, the MP4 itself and the preview under the encoded file path', () => {
    const urls = fileOutputUrls('vod/my film.mp4', 'http://h:80');
    expect(urls.map((u) => [u.label, u.url])).toEqual([
      ['HLS', 'http://h:80/vod/my%20film.mp4/index.m3u8'],
      ['DASH', 'http://h:80/vod/my%20film.mp4/index.mpd'],
      ['MPEG-TS', 'http://h:80/vod/my%20film.mp4/mpegts'],
      ['MP4', 'http://h:80/vod/my%20film.mp4'],
      ['Preview', 'http://h:80/vod/my%20film.mp4/preview.jpg'],
    ]);
  });
});
