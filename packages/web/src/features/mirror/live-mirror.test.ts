import { describe, expect, it } from 'vitest';
import { isMirrorKey, mirrorLabel, serverHealth, serversOf } from './live-mirror.js';

describe('a mirror in the live view', () => {
  it('tells healthy servers from failing ones (spec 000 §8)', () => {
    expect(serverHealth({ error: null })).toEqual({ online: true, text: 'online' });
    // A delta that set error to null removed the key.
    expect(serverHealth({})).toEqual({ online: true, text: 'online' });
    expect(serverHealth({ error: 'connection refused' })).toEqual({
      online: false,
      text: 'error: connection refused',
    });
  });

  it('pairs each configured url with its server state, in config order', () => {
    const a = { name: 'http://a', error: null, stream_names: ['x'] };
    expect(serversOf(['http://b', 'http://a'], { servers: [a] })).toEqual([
      { url: 'http://b', server: undefined },
      { url: 'http://a', server: a },
    ]);
  });

  it('names a mirror by its title, else its urls', () => {
    expect(mirrorLabel({ title: 'Main', urls: ['http://a'] }, '0')).toBe('Main');
    expect(mirrorLabel({ urls: ['http://a', 'http://b'] }, '0')).toBe('http://a, http://b');
    expect(mirrorLabel({}, '3')).toBe('mirror 3');
  });

  it('keys mirrors by position; the create marker is not a mirror', () => {
    expect(isMirrorKey('0')).toBe(true);
    expect(isMirrorKey('12')).toBe(true);
    expect(isMirrorKey('-1')).toBe(false);
  });
});
