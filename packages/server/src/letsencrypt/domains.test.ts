import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadDomains, MAX_DOMAINS, checkDomains } from './domains.js';

describe('checkDomains: the names a POST /letsencrypt may order', () => {
  it('lower-cases, trims a final dot and drops repeats', () => {
    expect(checkDomains([' Example.COM. ', 'example.com', 'www.example.com'])).toEqual([
      'example.com',
      'www.example.com',
    ]);
  });

  it('refuses IP addresses, wildcards, bad names and bad lists with a message naming the problem', () => {
    expect(() => checkDomains(['203.0.113.5'])).toThrow(/IP address/);
    expect(() => checkDomains(['::1'])).toThrow(/IP address/);
    expect(() => checkDomains(['*.example.com'])).toThrow(/wildcard/);
    expect(() => checkDomains(['-bad.example.com'])).toThrow(/not a domain name/);
    expect(() => checkDomains(['a..b'])).toThrow(/not a domain name/);
    expect(() => checkDomains([`${'a'.repeat(64)}.com`])).toThrow(/not a domain name/);
    expect(() => checkDomains([])).toThrow(BadDomains);
    expect(() => checkDomains('example.com')).toThrow(BadDomains);
    expect(() => checkDomains([42])).toThrow(BadDomains);
    expect(() =>
      checkDomains(Array.from({ length: MAX_DOMAINS + 1 }, (_, i) => `n${i}.example.com`)),
    ).toThrow(/at most 100/);
  });

  it('answers any JSON with a name list or BadDomains, and only DNS-shaped names pass', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(fc.string())), (input) => {
        try {
          for (const name of checkDomains(input)) expect(name).toMatch(/^[a-z0-9.-]{1,253}$/);
        } catch (error) {
          expect(error).toBeInstanceOf(BadDomains);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});
