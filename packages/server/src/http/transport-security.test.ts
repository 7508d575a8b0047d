import { describe, expect, it } from 'vitest';
import { hostName, httpsRedirectTarget } from './transport-security.js';

const plain = (url: string, host = 'media.example.com:8080') => ({ url, headers: { host }, socket: {} });
const on = { https_redirect: true };

describe('https_redirect', () => {
  it('sends the console and the API to the HTTPS port on the same host', () => {
    expect(httpsRedirectTarget(on, 8443, plain('/admin'))).toBe('https://media.example.com:8443/admin');
    expect(httpsRedirectTarget(on, 8443, plain('/admin/streams/a?x=1'))).toBe(
      'https://media.example.com:8443/admin/streams/a?x=1',
    );
    expect(httpsRedirectTarget(on, 443, plain('/flussonic/api/server'))).toBe(
      'https://media.example.com/flussonic/api/server',
    );
    expect(httpsRedirectTarget(on, 8443, plain('/', '[::1]:80'))).toBe('https://[::1]:8443/');
  });

  it('keeps playback, mirrors and anything else on plain HTTP', () => {
    for (const url of [
      '/cam/index.m3u8',
      '/cam/embed.html',
      '/flussonic/api/cluster/streams',
      '/administrator',
    ]) {
      expect(httpsRedirectTarget(on, 8443, plain(url))).toBeUndefined();
    }
  });

  it('stays off unless asked, with no HTTPS port open, over TLS, or for a strange Host', () => {
    expect(httpsRedirectTarget({}, 8443, plain('/admin'))).toBeUndefined();
    expect(httpsRedirectTarget(on, undefined, plain('/admin'))).toBeUndefined();
    expect(
      httpsRedirectTarget(on, 8443, { ...plain('/admin'), socket: { encrypted: true } }),
    ).toBeUndefined();
    expect(httpsRedirectTarget(on, 8443, plain('/admin', 'evil.com/x@y'))).toBeUndefined();
  });

  it('reads a Host header without its port', () => {
    expect(hostName('a.b:1')).toBe('a.b');
    expect(hostName('10.0.0.1')).toBe('10.0.0.1');
    expect(hostName(undefined)).toBeUndefined();
    expect(hostName('a b')).toBeUndefined();
  });
});
