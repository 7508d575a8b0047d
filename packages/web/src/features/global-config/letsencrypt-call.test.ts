import { describe, expect, it } from 'vitest';
import { domainsOf, isIpAddress } from './letsencrypt-call.js';

describe('LetsEncrypt from the console', () => {
  it('tells pages opened by IP address from those opened by name (spec 000 §5)', () => {
    expect(['127.0.0.1', '192.0.2.10', '[::1]', '[2001:db8::1]'].map(isIpAddress)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['localhost', 'stream.example.com', '1.example.com', 'v6.example'].map(isIpAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('reads several names from the domain field', () => {
    expect(domainsOf(' example.com, www.example.com  cdn.example.com ')).toEqual([
      'example.com',
      'www.example.com',
      'cdn.example.com',
    ]);
    expect(domainsOf('  ')).toEqual([]);
  });
});
