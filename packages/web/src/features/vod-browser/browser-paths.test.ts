import { describe, expect, it } from 'vitest';
import { joinSubpath, normalizeSubpath, parentOf, shownPath, vodFileName } from './browser-paths.js';

describe('browser paths', () => {
  it('normalizes a typed directory to a relative subpath', () => {
    expect(normalizeSubpath('/shows//2024/')).toBe('shows/2024');
    expect(normalizeSubpath('/')).toBe('');
    expect(normalizeSubpath('./a/./b')).toBe('a/b');
  });

  it('goes into and up from directories; the root is its own parent', () => {
    expect(joinSubpath('', 'shows')).toBe('shows');
    expect(joinSubpath('shows', '2024')).toBe('shows/2024');
    expect(parentOf('shows/2024')).toBe('shows');
    expect(parentOf('shows')).toBe('');
    expect(parentOf('')).toBe('');
    expect(shownPath('shows/2024')).toBe('/shows/2024');
  });

  it('names a file PREFIX/RELATIVE/PATH', () => {
    expect(vodFileName('vod', '', 'a.mp4')).toBe('vod/a.mp4');
    expect(vodFileName('vod', '/shows/2024/', 'my clip.mp4')).toBe('vod/shows/2024/my clip.mp4');
  });
});
