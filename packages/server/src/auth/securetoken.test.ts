import { describe, expect, it } from 'vitest';
import { checkSecureToken, secureTokenHash } from './securetoken.js';

describe('securetoken', () => {
  const now = 1_700_000_000_000;
  const start = String(now / 1000 - 10);
  const end = String(now / 1000 + 60);
  const token = `${secureTokenHash('key', 'demo', '1.2.3.4', start, end)}-${start}-${end}`;

  it('accepts the hash of name, ip, times and secret within its times', () => {
    expect(checkSecureToken('key', 'demo', '1.2.3.4', token, now)).toBeUndefined();
    expect(checkSecureToken('key', 'demo', '::ffff:1.2.3.4', token, now)).toBeUndefined();
  });

  it('refuses another stream, address, secret, an expired or a malformed token', () => {
    expect(checkSecureToken('key', 'other', '1.2.3.4', token, now)).toMatch(/does not match/);
    expect(checkSecureToken('key', 'demo', '1.2.3.5', token, now)).toMatch(/does not match/);
    expect(checkSecureToken('nope', 'demo', '1.2.3.4', token, now)).toMatch(/does not match/);
    expect(checkSecureToken('key', 'demo', '1.2.3.4', token, now + 120_000)).toMatch(/time range/);
    expect(checkSecureToken('key', 'demo', '1.2.3.4', 'abc', now)).toMatch(/HASH-START-END/);
    expect(checkSecureToken('key', 'demo', '1.2.3.4', undefined, now)).toMatch(/no token/);
  });
});
