import { describe, expect, it } from 'vitest';
import { convertSourceUrl, sourceUrlProblem, UNKNOWN_HTTP_SOURCE } from './source-input.js';

describe('source URL auto-conversion (spec 001 §5)', () => {
  it('turns http(s) playlists into hls and hlss', () => {
    expect(convertSourceUrl('http://origin/live/index.m3u8')).toBe('hls://origin/live/index.m3u8');
    expect(convertSourceUrl('https://origin/live/index.m3u8')).toBe('hlss://origin/live/index.m3u8');
    expect(convertSourceUrl('http://origin/a.m3u8?token=1')).toBe('hls://origin/a.m3u8?token=1');
  });

  it('turns addresses ending in ts or holding /udp/ into tshttp and tshttps', () => {
    expect(convertSourceUrl('http://origin/cam/mpegts')).toBe('tshttp://origin/cam/mpegts');
    expect(convertSourceUrl('http://origin/cam.ts')).toBe('tshttp://origin/cam.ts');
    expect(convertSourceUrl('https://origin/cam.ts')).toBe('tshttps://origin/cam.ts');
    expect(convertSourceUrl('http://proxy:4022/udp/239.0.0.1:1234')).toBe(
      'tshttp://proxy:4022/udp/239.0.0.1:1234',
    );
  });

  it('leaves every other address as it is', () => {
    for (const url of ['http://origin/page.html', 'udp://239.0.0.1:1234', 'rtmp://x/app/s', 'test://', ''])
      expect(convertSourceUrl(url)).toBe(url);
  });

  it('refuses an http(s) address it could not convert', () => {
    expect(sourceUrlProblem('http://origin/page.html')).toBe(UNKNOWN_HTTP_SOURCE);
    expect(sourceUrlProblem('HTTPS://origin/')).toBe(UNKNOWN_HTTP_SOURCE);
    expect(sourceUrlProblem('http://origin/index.m3u8')).toBeUndefined();
    expect(sourceUrlProblem('udp://239.0.0.1:1234')).toBeUndefined();
  });
});
