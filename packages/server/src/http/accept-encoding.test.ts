import { describe, expect, it } from 'vitest';
import { pickEncoding } from './accept-encoding.js';

describe('pickEncoding', () => {
  it('prefers brotli, falls back to gzip, sends plain when neither is taken', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
    expect(pickEncoding('')).toBeUndefined();
  });

  it('follows q-values, q=0 refusing a coding, * covering the unnamed', () => {
    expect(pickEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0.1, br;q=0')).toBe('gzip');
    expect(pickEncoding('br', ['gzip'])).toBeUndefined();
  });
});
