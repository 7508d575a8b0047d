import { describe, expect, it } from 'vitest';
import { withAdminToken } from './admin-token.js';

describe('admin token on player urls', () => {
  it('appends token= to the query, encoded, and leaves the url alone without a token', () => {
    expect(withAdminToken('/a/index.m3u8', 't+1')).toBe('/a/index.m3u8?token=t%2B1');
    expect(withAdminToken('/a/embed.html?version=3', 'x')).toBe('/a/embed.html?version=3&token=x');
    expect(withAdminToken('/a/index.m3u8', undefined)).toBe('/a/index.m3u8');
  });
});
