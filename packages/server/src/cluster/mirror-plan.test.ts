import { describe, expect, it } from 'vitest';
import { isStatic, listUrl, MirrorUrlError, mirroredNames, mirroredStream, pullUrl } from './mirror-plan.js';

describe('mirror urls', () => {
  it('maps a mirror url to its list call and to each stream pull', () => {
    expect(listUrl('http://origin:8080')).toBe('http://origin:8080/flussonic/api/cluster/streams');
    expect(listUrl('http://origin:8080/')).toBe('http://origin:8080/flussonic/api/cluster/streams');
    expect(listUrl('https://origin.example.net/edge/')).toBe(
      'https://origin.example.net/edge/flussonic/api/cluster/streams',
    );
    expect(pullUrl('http://origin:8080', 'news')).toBe('tshttp://origin:8080/news/mpegts');
    expect(pullUrl('https://o.example.net/edge', 'live/cam 1')).toBe(
      'tshttps://o.example.net/edge/live/cam%201/mpegts',
    );
  });

  it('takes a bare host:port as http, and no port as the default one', () => {
    expect(listUrl('origin:8080')).toBe('http://origin:8080/flussonic/api/cluster/streams');
    expect(pullUrl(' origin ', 'a')).toBe('tshttp://origin/a/mpegts');
  });

  it('refuses what is no HTTP address', () => {
    expect(() => listUrl('rtmp://origin/live')).toThrow(MirrorUrlError);
    expect(() => listUrl('http://')).toThrow(MirrorUrlError);
  });
});

describe('mirror modes (spec 000 §4)', () => {
  it('no only list: every stream static', () => {
    expect(isStatic({}, 'a')).toBe(true);
  });

  it('an only list: its names static, the rest on demand (an empty list: all on demand)', () => {
    expect(isStatic({ only: ['a'] }, 'a')).toBe(true);
    expect(isStatic({ only: ['a'] }, 'b')).toBe(false);
    expect(isStatic({ only: [] }, 'a')).toBe(false);
  });

  it('leaves out except names and names taken locally, in name order', () => {
    const taken = (name: string) => name === 'local';
    expect(mirroredNames({ except: ['b'] }, ['c', 'b', 'a', 'local'], taken)).toEqual(['a', 'c']);
  });

  it('pulls a stream from every url of its mirror, proving its key (or the global one)', () => {
    const mirror = {
      urls: ['http://o1:80', 'http://o2:8080', 'rtmp://nope'],
      only: ['x'],
      cluster_key: 'mk',
    };
    expect(mirroredStream(mirror, 'y', 'global')).toEqual({
      name: 'y',
      urls: [{ url: 'tshttp://o1/y/mpegts' }, { url: 'tshttp://o2:8080/y/mpegts' }],
      static: false,
      cluster_key: 'mk',
    });
    expect(mirroredStream({ urls: ['http://o1'] }, 'x', 'global').cluster_key).toBe('global');
    expect(mirroredStream({ urls: ['http://o1'] }, 'x', undefined).cluster_key).toBeUndefined();
  });

  it("hands the mirror's client timeout to its mirrored streams", () => {
    expect(mirroredStream({ urls: ['http://o1'], clients_timeout: 5 }, 'x', undefined).clients_timeout).toBe(
      5,
    );
    expect(mirroredStream({ urls: ['http://o1'] }, 'x', undefined).clients_timeout).toBeUndefined();
  });
});
