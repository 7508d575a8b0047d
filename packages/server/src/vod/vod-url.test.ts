import { describe, expect, it } from 'vitest';
import { HLS_RESOURCE, parseVodUrl } from './vod-url.js';

const isResource = (part: string) => HLS_RESOURCE.test(part) || part === 'index.mpd';
const parse = (path: string, prefixes = ['vod', 'vod/deep', 'movies']) =>
  parseVodUrl(path, prefixes, isResource);

describe('parseVodUrl', () => {
  it('takes the longest configured prefix, even one holding a /', () => {
    expect(parse('/vod/deep/a.mp4')).toEqual({
      prefix: 'vod/deep',
      targets: [{ parts: ['a.mp4'], resource: '' }],
    });
    expect(parse('/vod/other/a.mp4')).toEqual({
      prefix: 'vod',
      targets: [{ parts: ['other', 'a.mp4'], resource: '' }],
    });
  });

  it('reads a resource after the file, and keeps the whole path as a second reading', () => {
    expect(parse('/movies/x/film%20one.mp4/seg-12.ts')).toEqual({
      prefix: 'movies',
      targets: [
        { parts: ['x', 'film one.mp4'], resource: 'seg-12.ts' },
        { parts: ['x', 'film one.mp4', 'seg-12.ts'], resource: '' },
      ],
    });
    expect(parse('/movies/a.mp4/index.mpd')).toMatchObject({ targets: [{ resource: 'index.mpd' }, {}] });
    for (const resource of ['index.m3u8', 'video.m3u8', 'audio-2.m3u8', 'a-2-7.ts', 'mpegts'])
      expect(parse(`/movies/a.mp4/${resource}`)).toMatchObject({
        targets: [{ parts: ['a.mp4'], resource }, {}],
      });
    // A resource name alone under the prefix is a file of that name.
    expect(parse('/movies/index.m3u8')).toEqual({
      prefix: 'movies',
      targets: [{ parts: ['index.m3u8'], resource: '' }],
    });
  });

  it('leaves paths under no prefix to others', () => {
    expect(parse('/live/a.mp4')).toBeUndefined();
    expect(parse('/vod')).toBeUndefined();
    expect(parse('/vod/')).toBeUndefined();
    expect(parse('/vodka/a.mp4')).toBeUndefined();
    expect(parse('/vod/a.mp4', [])).toBeUndefined();
  });

  it('refuses parts that could leave the root or name a file two ways', () => {
    for (const path of [
      '/vod/../x.mp4',
      '/vod/%2e%2e/x.mp4',
      '/vod/a/./x.mp4',
      '/vod/..%2fx.mp4',
      '/vod/a%5c..%5cx.mp4',
      '/vod/a%00.mp4',
      '/vod/a//x.mp4',
      '/vod/a.mp4/',
      '/vod/%E0%A4%A',
    ]) {
      const parsed = parse(path);
      expect(parsed && 'error' in parsed, path).toBe(true);
    }
  });
});
