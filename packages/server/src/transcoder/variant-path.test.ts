import { describe, expect, it } from 'vitest';
import { variantPath } from './variant-path.js';

describe('variantPath', () => {
  it('splits /{name}/tracks-vN off playlist and segment requests', () => {
    expect(variantPath('live/tv/tracks-v2', 'video.m3u8')).toEqual({ name: 'live/tv', variant: 2 });
    expect(variantPath('tv/tracks-v1', 'seg-17.ts')).toEqual({ name: 'tv', variant: 1 });
    expect(variantPath('tv/tracks-v1', 'index.m3u8')).toBeUndefined();
    expect(variantPath('tv/tracks-v0', 'video.m3u8')).toBeUndefined();
  });
});
