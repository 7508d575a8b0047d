import { describe, expect, it } from 'vitest';
import { nextPageDecision } from './iptv-paging.js';
import { disableDelta, enableDelta, splitStreams } from './iptv-streams.js';

describe('IPTV stream rules (spec 002 §4)', () => {
  it('enabling marks meta.iptv and adds the local /tv/auth url only when no auth url exists', () => {
    expect(enableDelta('news', {}, 8080)).toEqual({
      streams: { news: { meta: { iptv: true }, auth: { url: 'http://127.0.0.1:8080/tv/auth' } } },
    });
    expect(enableDelta('news', { auth: { url: 'auth://paid' } }, 8080)).toEqual({
      streams: { news: { meta: { iptv: true } } },
    });
  });

  it("disabling clears the marker and removes the local url or a non-/tv/auth one, not another server's /tv/auth", () => {
    const removed = { meta: { iptv: null }, auth: { url: null, extra: null } };
    expect(disableDelta('a', { auth: { url: 'http://127.0.0.1:80/tv/auth' } })).toEqual({
      streams: { a: removed },
    });
    expect(disableDelta('a', { auth: { url: 'http://backend.example/check' } })).toEqual({
      streams: { a: removed },
    });
    expect(disableDelta('a', { auth: { url: 'http://tv.example/tv/auth' } })).toEqual({
      streams: { a: { meta: { iptv: null } } },
    });
    expect(disableDelta('a', {})).toEqual({ streams: { a: { meta: { iptv: null } } } });
  });

  it('lists matching streams in position order, Enabled and Disabled apart', () => {
    const streams = {
      c: { position: 0, meta: { iptv: true } },
      a: { position: 2 },
      b: { position: 1, title: 'Sports', meta: { iptv: true } },
    };
    expect(splitStreams(streams, '')).toEqual({ enabled: ['c', 'b'], disabled: ['a'] });
    expect(splitStreams(streams, 'sport')).toEqual({ enabled: ['b'], disabled: [] });
  });
});

describe('users paging (spec 002 §4, §9)', () => {
  const base = { remainingPx: 100, lastLoadAtMs: 0, nowMs: 5000, hasMore: true, loading: false };
  it('loads within 300 px of the bottom, at most once a second, until a short page', () => {
    expect(nextPageDecision(base)).toBe('now');
    expect(nextPageDecision({ ...base, remainingPx: 301 })).toBe('no');
    expect(nextPageDecision({ ...base, remainingPx: 300 })).toBe('now');
    expect(nextPageDecision({ ...base, lastLoadAtMs: 4500 })).toBe('later');
    expect(nextPageDecision({ ...base, hasMore: false })).toBe('no');
    expect(nextPageDecision({ ...base, loading: true })).toBe('no');
  });
});
