import { describe, expect, it } from 'vitest';
import { imageType, logoFileOf, logoNameError } from './logo-store.js';

describe('logo names and files', () => {
  it('refuses names that could leave the logos folder', () => {
    for (const bad of ['..', '../x', 'a/b', '.hidden', '', 'a\\b', 'x'.repeat(129)])
      expect(logoNameError(bad)).toMatch(/^bad logo name/);
    expect(logoNameError('corner-1.png')).toBeUndefined();
  });

  it("resolves only '@name' logo paths into the folder", () => {
    expect(logoFileOf('/data/logos', '@corner.png')).toBe('/data/logos/corner.png');
    expect(logoFileOf('/data/logos', '@../sluice.conf')).toBeUndefined();
    expect(logoFileOf('/data/logos', '/etc/passwd')).toBeUndefined();
  });

  it('knows pictures by their first bytes', () => {
    expect(imageType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(imageType(Buffer.from('ffd8ffe000', 'hex'))).toBe('image/jpeg');
    expect(imageType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(imageType(Buffer.from('<svg xmlns='))).toBeUndefined();
  });
});
