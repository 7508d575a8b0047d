import { describe, expect, it } from 'vitest';
import { authBackendName, authTypeOf, iptvAuthUrl, stalkerAuthUrl, stalkerHost } from './auth-url.js';

describe('auth url kinds', () => {
  it('reads each type from the url the Auth tab writes', () => {
    expect(authTypeOf(undefined)).toBe('none');
    expect(authTypeOf('')).toBe('none');
    expect(authTypeOf('http://backend.example/auth')).toBe('custom');
    expect(authTypeOf('auth://paid')).toBe('custom');
    expect(authTypeOf('securetoken://k3y')).toBe('securetoken');
    expect(authTypeOf(stalkerAuthUrl('portal.example'))).toBe('stalker');
    expect(authTypeOf(iptvAuthUrl(8080))).toBe('iptv');
    expect(authTypeOf('vsaas://')).toBe('vsaas');
  });

  it('builds the stalker url from a host with or without scheme and gives the host back', () => {
    expect(stalkerAuthUrl('portal.example/')).toBe(
      'http://portal.example/stalker_portal/server/api/chk_flussonic_tmp_link.php',
    );
    expect(stalkerHost(stalkerAuthUrl('https://p.example'))).toBe('https://p.example');
  });

  it('names the auth backend of an auth:// url only', () => {
    expect(authBackendName('auth://paid')).toBe('paid');
    expect(authBackendName('http://x/auth')).toBeUndefined();
  });
});
