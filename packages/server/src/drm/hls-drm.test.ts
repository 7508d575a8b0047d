import { expect, it } from 'vitest';
import { drmFor } from './hls-drm.js';

// The field review (test/field-review) names this test for a location's drm and meta.drm_id.
it("takes a published stream's DRM from its publishing location (longest prefix), with its drm_id", () => {
  const config = {
    lives: {
      live: { drm: { vendor: 'aes128' as const }, meta: { drm_id: 'all' } },
      'live/sport': { drm: { vendor: 'aes128' as const, keyserver: 'http://k/' }, meta: { drm_id: 'sport' } },
    },
    streams: { own: {} },
  };
  expect(drmFor(config, 'live/sport/one')).toEqual({
    drm: { vendor: 'aes128', keyserver: 'http://k/' },
    drmId: 'sport',
  });
  expect(drmFor(config, 'live/news')?.drmId).toBe('all');
  // A configured stream's own settings win, even when it has none.
  expect(drmFor(config, 'own')).toBeUndefined();
  expect(drmFor(config, 'other/x')).toBeUndefined();
});
