import { describe, expect, it } from 'vitest';
import type { LiveMirror } from './live-mirror.js';
import { findOriginMirror, hostPortOf, sameServer, streamSourceUrl } from './url-match.js';

const stream = (name: string, url?: string) => ({
  name,
  static: true,
  stats: url ? { alive: true, url } : {},
});

describe('host and port of a url', () => {
  it('reads host and port, port 80 when the url has none', () => {
    expect(hostPortOf('http://origin:8080/x')).toEqual({ host: 'origin', port: 8080 });
    expect(hostPortOf('http://Origin.Example')).toEqual({ host: 'origin.example', port: 80 });
    expect(hostPortOf('tshttp://user:pw@10.0.0.1/live/mpegts')).toEqual({ host: '10.0.0.1', port: 80 });
    expect(hostPortOf('https://origin')).toEqual({ host: 'origin', port: 80 });
    expect(hostPortOf('http://[::1]:81/a')).toEqual({ host: '[::1]', port: 81 });
    expect(hostPortOf('origin:8080')).toBeUndefined();
    expect(hostPortOf('')).toBeUndefined();
  });

  it('compares servers by host and port only', () => {
    expect(sameServer('http://origin', 'http://origin:80/cam/mpegts')).toBe(true);
    expect(sameServer('http://origin:8080', 'http://ORIGIN:8080/a/index.m3u8')).toBe(true);
    expect(sameServer('http://origin:8080', 'http://origin/cam')).toBe(false);
    expect(sameServer('http://origin', 'http://other')).toBe(false);
    expect(sameServer('nonsense', 'nonsense')).toBe(false);
  });
});

describe('the origin mirror of a mirrored stream', () => {
  const sources: Record<string, LiveMirror> = {
    '0': {
      urls: ['http://a.example:8080'],
      streams: { cam: stream('cam', 'http://a.example:8080/cam/mpegts') },
    },
    '1': {
      urls: ['http://b.example', 'http://c.example:81'],
      stats: {
        servers: [
          { name: 'http://b.example', error: 'connection refused', stream_names: [] },
          { name: 'http://c.example:81', error: null, stream_names: ['idle', 'news'] },
        ],
      },
      streams: {
        news: stream('news', 'http://c.example:81/news/mpegts'),
        idle: stream('idle'),
        stray: stream('stray', 'http://elsewhere:81/stray/mpegts'),
      },
    },
  };

  it('is the mirror whose url has the host and port of the active source', () => {
    expect(findOriginMirror('cam', sources)).toBe('0');
    expect(findOriginMirror('news', sources)).toBe('1');
  });

  it('uses the origin server that listed an idle stream', () => {
    expect(streamSourceUrl(sources['1']!, 'idle')).toBe('http://c.example:81');
    expect(findOriginMirror('idle', sources)).toBe('1');
  });

  it('finds none when no mirror lists the stream or its source matches no url', () => {
    expect(findOriginMirror('missing', sources)).toBeUndefined();
    expect(findOriginMirror('stray', sources)).toBeUndefined();
    expect(findOriginMirror('cam', undefined)).toBeUndefined();
  });
});
