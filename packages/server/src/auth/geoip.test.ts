import { describe, expect, it } from 'vitest';
import { GeoIp } from './geoip.js';
import { ipMatches } from './ip-match.js';

describe('GeoIp', () => {
  let overrides: Record<string, string> | undefined;
  const geo = new GeoIp(() => overrides);

  it('answers from the shipped DB-IP database, for IPv4, IPv4-mapped and IPv6 addresses', () => {
    expect(geo.country('8.8.8.8')).toBe('US');
    expect(geo.country('::ffff:81.2.69.142')).toBe('GB');
    expect(geo.country('2a00:1450:4001::1')).not.toBe('');
  });

  it('knows no country for loopback, private and malformed addresses', () => {
    expect(geo.country('127.0.0.1')).toBe('');
    expect(geo.country('10.1.2.3')).toBe('');
    expect(geo.country('not an ip')).toBe('');
  });

  it('answers geoip_overrides first', () => {
    overrides = { '127.0.0.1': 'FR', '8.8.8.8': 'nl' };
    expect(geo.country('::ffff:127.0.0.1')).toBe('FR');
    expect(geo.country('8.8.8.8')).toBe('NL');
    overrides = undefined;
  });
});

describe('ipMatches', () => {
  it('takes plain addresses and CIDR ranges of both families, ignoring bad rules', () => {
    expect(ipMatches('10.9.8.7', ['10.0.0.0/8'])).toBe(true);
    expect(ipMatches('::ffff:10.9.8.7', ['10.0.0.0/8'])).toBe(true);
    expect(ipMatches('11.9.8.7', ['10.0.0.0/8', 'garbage', '1.2.3.4/99'])).toBe(false);
    expect(ipMatches('2001:db8::5', ['2001:db8::/32'])).toBe(true);
    expect(ipMatches('::1', ['::1'])).toBe(true);
    expect(ipMatches('127.0.0.1', ['::1'])).toBe(false);
  });
});
