import { describe, expect, it } from 'vitest';
import {
  fileOutputLinks,
  filePlayPath,
  joinSubpath,
  normalizeSubpath,
  parentOf,
  shownPath,
} from './browser-paths.js';

describe('browser paths', () => {
  it('normalizes a typed directory to a relative subpath', () => {
    expect(normalizeSubpath('/shows//2024/')).toBe('shows/2024');
    expect(normalizeSubpath('/')).toBe('');
    expect(normalizeSubpath('./a/./b')).toBe('a/b');
  });

  it('goes into and up from directories; the root is its own parent', () => {
    expect(joinSubpath('', 'shows')).toBe('shows');
    expect(joinSubpath('shows', '2024')).toBe('shows/2024');
    expect(parentOf('shows/2024')).toBe('shows');
    expect(parentOf('shows')).toBe('');
    expect(parentOf('')).toBe('');
    expect(shownPath('shows/2024')).toBe('/shows/2024');
  });

  it('plays a file at /{prefix}/{subpath}/{file}, each name encoded', () => {
    expect(filePlayPath('vod', '', 'a.mp4')).toBe('/vod/a.mp4');
    expect(filePlayPath('vod', 'shows/2024', 'my clip#1.mp4')).toBe('/vod/shows/2024/my%20clip%231.mp4');
  });

  it('links HLS, DASH, MPEG-TS and the MP4 file', () => {
    expect(fileOutputLinks('http://h:8080', '/vod/a.mp4')).toEqual([
      { label: 'HLS', url: 'http://h:8080/vod/a.mp4/index.m3u8' },
      { label: 'DASH', url: 'http://h:8080/vod/a.mp4/index.mpd' },
      { label: 'MPEG-TS', url: 'http://h:8080/vod/a.mp4/mpegts' },
      { label: 'MP4', url: 'http://h:8080/vod/a.mp4' },
    ]);
  });
});
