import { describe, expect, it } from 'vitest';
import { routePublish } from './publish-route.js';

const config = {
  streams: {
    cam: { publish_enabled: true },
    'news/main': { urls: [{ url: 'publish://' }] },
    pulled: { urls: [{ url: 'udp://:1' }] },
    off: { publish_enabled: true, disabled: true },
    studio: { publish_enabled: true, prefix: 'cams' },
  },
  lives: { live: { except: ['debug', 'live/test'] }, 'live/sport': {} },
};

describe('routePublish', () => {
  it('sends static/NAME to the stream NAME and APP/NAME to the stream of that name', () => {
    expect(routePublish(config, 'static', 'cam')).toEqual({ kind: 'stream', name: 'cam' });
    expect(routePublish(config, 'news', 'main')).toEqual({ kind: 'stream', name: 'news/main' });
  });

  it("sends PREFIX/NAME to the stream NAME whose own prefix is PREFIX (the console's publish URL)", () => {
    expect(routePublish(config, 'cams', 'studio')).toEqual({ kind: 'stream', name: 'studio' });
    expect(routePublish(config, 'static', 'studio')).toEqual({ kind: 'stream', name: 'studio' });
  });

  it('creates PREFIX/NAME in the location with the longest matching prefix', () => {
    expect(routePublish(config, 'live', 'x')).toEqual({ kind: 'location', prefix: 'live', name: 'live/x' });
    expect(routePublish(config, 'live/sport', 'y')).toEqual({
      kind: 'location',
      prefix: 'live/sport',
      name: 'live/sport/y',
    });
  });

  it("refuses streams that do not publish, disabled ones, a location's except names, and paths nothing holds", () => {
    expect(routePublish(config, 'static', 'pulled')).toEqual({
      refused: 'stream pulled does not accept publishing',
    });
    expect(routePublish(config, 'static', 'off')).toEqual({ refused: 'stream off is disabled' });
    expect(routePublish(config, 'live', 'debug')).toEqual({
      refused: 'location live does not accept publishing live/debug (except)',
    });
    expect(routePublish(config, 'live', 'test')).toEqual({
      refused: 'location live does not accept publishing live/test (except)',
    });
    expect(routePublish(config, 'other', 'z')).toEqual({
      refused: 'no stream other/z accepts publishing, and no publishing location holds other/z',
    });
  });

  it('refuses names the config would refuse, before any stream is made (issue 13)', () => {
    for (const name of ['..', 'a/../b', 'a<b', 'a b', 'a\nb', 'a\r\nnotice forged', '.', 'a//b', 'a/']) {
      expect(routePublish(config, 'live', name)).toMatchObject({
        refused: expect.stringContaining('not a valid stream name') as string,
      });
    }
    expect(routePublish(config, 'live', 'x'.repeat(600))).toMatchObject({
      refused: expect.stringContaining('at most 512 characters') as string,
    });
    expect(routePublish(config, 'static', '../cam')).toMatchObject({
      refused: expect.stringContaining('must not contain . or .. segments') as string,
    });
  });
});
