import { expect, it } from 'vitest';
import { playbackUrl } from './play-url.js';

it('plays a stream or a published stream by its HLS playlist', () => {
  expect(playbackUrl('cam')).toBe('/cam/index.m3u8');
  expect(playbackUrl('live/studio 1')).toBe('/live/studio%201/index.m3u8');
});
