import { describe, expect, it } from 'vitest';
import { locationSources, pullLocation } from './location-urls.js';

describe('location urls', () => {
  const config = {
    lives: {
      cams: { urls: [{ url: 'rtsp://nvr.local/{NAME}', source_timeout: 5 }], except: ['door'] },
      'cams/hd': { urls: [{ url: 'udp://239.0.0.1:{NAME}' }] },
      live: { urls: [{ url: 'publish://' }] },
    },
  };

  it('finds the longest prefix with pull urls, and fills {NAME} with the path after it', () => {
    const found = pullLocation(config, 'cams/hd/1234');
    expect(found?.prefix).toBe('cams/hd');
    expect(locationSources(found!.location, 'cams/hd', 'cams/hd/1234')).toEqual([
      { url: 'udp://239.0.0.1:1234' },
    ]);
    const yard = pullLocation(config, 'cams/yard/left');
    expect(locationSources(yard!.location, 'cams', 'cams/yard/left')).toEqual([
      { url: 'rtsp://nvr.local/yard/left', source_timeout: 5 },
    ]);
  });

  it('pulls nothing for except names, invalid names, or a location that only takes publishers', () => {
    expect(pullLocation(config, 'cams/door')).toBeUndefined();
    expect(pullLocation(config, 'cams/../etc')).toBeUndefined();
    expect(pullLocation(config, 'cams/')).toBeUndefined();
    expect(pullLocation(config, 'live/x')).toBeUndefined();
    expect(pullLocation(config, 'other/x')).toBeUndefined();
  });
});
