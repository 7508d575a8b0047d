import { describe, expect, it } from 'vitest';
import { vodPrefixOf } from './live-file.js';

describe('the VOD of a file name', () => {
  it('is the longest configured prefix the name starts with', () => {
    expect(vodPrefixOf('vod/a.mp4', ['vod', 'other'])).toBe('vod');
    expect(vodPrefixOf('vod/x/a.mp4', ['vod', 'vod/x'])).toBe('vod/x');
    expect(vodPrefixOf('video/a.mp4', ['vod'])).toBeUndefined();
  });
});
