import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArchivePath } from './archive-url.js';

/** Pieces of the archive URL family, glued at random with junk between (request paths from anyone). */
const piece = fc.oneof(
  fc.constantFrom(
    'archive-',
    'index-',
    'timeshift_abs-',
    'timeshift_rel-',
    'rewind-',
    'dvr/',
    'ranges',
    'recording_status',
    'media_info',
    'info',
    '-preview',
    '.m3u8',
    '.fmp4.m3u8',
    '.ts',
    '.mp4',
    '.mpd',
    '.m4s',
    '.init.mp4',
    '.json',
    '.jpg',
    '/',
    '..',
    '.',
    '-',
    '%2e%2e',
    '%2F',
    '\0',
    '\\',
    'cam',
    'live/cam',
  ),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(String),
  fc.stringMatching(/^\d{1,25}$/),
  fc.string({ maxLength: 8 }),
);
const path = fc.array(piece, { maxLength: 12 }).map((parts) => `/${parts.join('')}`);

describe('archive URL parser under random paths', () => {
  it('never throws; what it accepts names a stream inside the archive with sane times', () => {
    fc.assert(
      fc.property(path, (p) => {
        const parsed = parseArchivePath(p);
        if (parsed === undefined) return;
        if ('error' in parsed) {
          expect(typeof parsed.error).toBe('string');
          return;
        }
        const parts = parsed.name.split('/');
        expect(parts.every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('\0'))).toBe(true);
        for (const [key, value] of Object.entries(parsed))
          if (key.endsWith('Ms')) expect(Number.isSafeInteger(value) && (value as number) >= 0).toBe(true);
        if ('durationMs' in parsed) expect(parsed.durationMs).toBeGreaterThan(0);
      }),
      { numRuns: 20_000 },
    );
  });
});
