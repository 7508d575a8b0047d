import { describe, expect, it } from 'vitest';
import type { AuthBackend } from '@sluice/api';
import { checkAuthBackend } from './backend-rules.js';
import type { BackendAnswer } from './http-backend.js';
import type { PlayRequest } from './play-request.js';

const request = (over: Partial<PlayRequest> = {}): PlayRequest => ({
  name: 'demo',
  ip: '10.1.2.3',
  token: 'tok',
  userAgent: 'VLC/3.0',
  referer: undefined,
  proto: 'hls',
  requestType: 'play',
  sessionId: 's1',
  country: 'FR',
  ...over,
});

/** A backend that answers `answer` for every url, recording the urls asked. */
const backends = (answers: Record<string, BackendAnswer>) => {
  const asked: string[] = [];
  const ask = async (url: string) => {
    asked.push(url);
    return answers[url] ?? { answer: 'none', problem: 'no such backend' };
  };
  return { asked, ask };
};

const check = (backend: AuthBackend, r = request(), answers: Record<string, BackendAnswer> = {}) => {
  const b = backends(answers);
  return checkAuthBackend('b', backend, r, b.ask).then((v) => ({ allow: v.allow, asked: b.asked }));
};

describe('auth backend rule order', () => {
  it('denies by default, allows with allow_default', async () => {
    expect((await check({})).allow).toBe(false);
    expect((await check({ allow_default: true })).allow).toBe(true);
  });

  it('a denied token wins over an allowed token, ip, country and ua', async () => {
    const backend: AuthBackend = {
      allow_default: true,
      deny: { tokens: ['tok'] },
      allow: { tokens: ['tok'], ips: ['10.0.0.0/8'], countries: ['FR'], uas: ['vlc'] },
    };
    expect((await check(backend)).allow).toBe(false);
  });

  it('an allowed token wins over a denied ip', async () => {
    const backend: AuthBackend = { allow: { tokens: ['tok'] }, deny: { ips: ['10.1.2.3'] } };
    expect((await check(backend)).allow).toBe(true);
    expect((await check(backend, request({ token: 'other' }))).allow).toBe(false);
  });

  it('ips: plain and CIDR; a denied ip wins over an allowed country', async () => {
    const backend: AuthBackend = { deny: { ips: ['10.0.0.0/8'] }, allow: { countries: ['FR'] } };
    expect((await check(backend)).allow).toBe(false);
    expect((await check(backend, request({ ip: '192.168.1.1' }))).allow).toBe(true);
    expect((await check({ allow: { ips: ['::ffff:10.1.2.3', '10.1.2.3'] } })).allow).toBe(true);
  });

  it('an allowed ip wins over a denied country; a denied country over an allowed ua', async () => {
    expect((await check({ allow: { ips: ['10.1.2.3'] }, deny: { countries: ['FR'] } })).allow).toBe(true);
    expect((await check({ allow: { uas: ['VLC'] }, deny: { countries: ['fr'] } })).allow).toBe(false);
  });

  it('user agents match case-insensitively by part', async () => {
    expect((await check({ deny: { uas: ['vlc/3'] }, allow_default: true })).allow).toBe(false);
    expect((await check({ allow: { uas: ['Chrome'] } })).allow).toBe(false);
  });

  it('asks its HTTP backends only when no list matched; the first answer wins', async () => {
    const listed = await check({ allow: { tokens: ['tok'] }, backends: [{ url: 'http://a' }] }, request(), {
      'http://a': { answer: 'deny' },
    });
    expect(listed).toEqual({ allow: true, asked: [] });
    const denied = await check({ allow_default: true, backends: [{ url: 'http://a' }] }, request(), {
      'http://a': { answer: 'deny' },
    });
    expect(denied).toEqual({ allow: false, asked: ['http://a'] });
    const allowed = await check({ backends: [{ url: 'http://a' }, { url: 'http://b' }] }, request(), {
      'http://b': { answer: 'allow' },
    });
    expect(allowed).toEqual({ allow: true, asked: ['http://a', 'http://b'] });
  });

  it('backends with no answer fall through to allow_default', async () => {
    const b = { backends: [{ url: 'http://down' }] };
    expect((await check(b)).allow).toBe(false);
    expect((await check({ ...b, allow_default: true })).allow).toBe(true);
  });
});
