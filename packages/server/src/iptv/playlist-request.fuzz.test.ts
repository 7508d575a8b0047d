import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlaylist } from './playlist.js';
import { parsePlaylistRequest } from './playlist-request.js';

const CASES = 10_000;

/** Request targets built from the pieces the parser looks at, plus junk, so every branch is reached. */
const target = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '/tv/playlists/',
        '1',
        '42',
        '0',
        '.m3u',
        '.m3u8',
        '?',
        '&',
        'key=',
        'type=',
        'mpegts',
        'hls',
      ),
      fc.constantFrom('%', '%2', '%E0%A4%A', '+', '=', '..', '/', '#', '\0', '\r\n', '9'.repeat(20)),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''));

describe('IPTV playlist request parsing (fuzz)', () => {
  it(`never throws; what it accepts is a positive id, one key and hls or mpegts (${CASES} targets)`, () => {
    fc.assert(
      fc.property(target, (raw) => {
        const parsed = parsePlaylistRequest(raw);
        if (parsed === undefined) return;
        expect(raw.startsWith('/tv/playlists/')).toBe(true);
        expect(Number.isSafeInteger(parsed.id) && parsed.id > 0).toBe(true);
        expect(parsed.key.length).toBeGreaterThan(0);
        expect(parsed.key.length).toBeLessThanOrEqual(256);
        expect(['hls', 'mpegts']).toContain(parsed.type);
      }),
      { numRuns: CASES },
    );
  });

  it('reads back what a playlist link holds, whatever the key', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.constantFrom(undefined, 'hls', 'mpegts'),
        fc.string({ maxLength: 10 }),
        (id, key, type, other) => {
          const query = new URLSearchParams({ key, ...(type ? { type } : {}), x: other });
          expect(parsePlaylistRequest(`/tv/playlists/${id}.m3u?${query}`)).toEqual({
            id,
            key,
            type: type ?? 'hls',
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('malformed targets and unknown types are refused alike', () => {
    for (const raw of [
      '/tv/playlists/1.m3u',
      '/tv/playlists/01.m3u?key=a',
      '/tv/playlists/-1.m3u?key=a',
      '/tv/playlists/1.txt?key=a',
      '/tv/playlists/1.m3u?key=a&key=b',
      '/tv/playlists/1.m3u?key=a&type=dash',
      '/tv/playlists/1.m3u?key=%E0%A4%A',
      '/tv/playlists/1/2.m3u?key=a',
    ])
      expect(parsePlaylistRequest(raw), raw).toBeUndefined();
  });

  it('whatever the titles and meta hold, each channel is one #EXTINF line and one url line', () => {
    const text = fc.string({ maxLength: 30 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: text, group: text, logo: text, tvg: text }), {
          minLength: 1,
          maxLength: 5,
        }),
        (channels) => {
          const streams = Object.fromEntries(
            channels.map((c, i) => [
              `s${i}`,
              {
                title: c.title,
                position: i,
                meta: { iptv: true, group: c.group, logo: c.logo, tvg_id: c.tvg },
              },
            ]),
          );
          const lines = buildPlaylist({ streams }, { base: 'http://h', token: 'k', type: 'hls' }).split('\n');
          expect(lines.at(-1)).toBe('');
          expect(lines.length).toBe(2 + channels.length * 2);
          for (let i = 0; i < channels.length; i++) {
            expect(lines[1 + i * 2]).toMatch(/^#EXTINF:-1 tvg-id="[^"]*" tvg-name="[^"]*"/);
            expect(lines[2 + i * 2]).toBe(`http://h/s${i}/index.m3u8?token=k`);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
