import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMssPath } from './mss-url.js';

describe('Smooth Streaming URLs', () => {
  it('reads the manifest and fragment URLs of a name with slashes', () => {
    expect(parseMssPath('/live/cam%201.isml/manifest')).toEqual({
      name: 'live/cam 1',
      request: { kind: 'manifest' },
    });
    expect(parseMssPath('/demo.isml/Manifest')).toMatchObject({ request: { kind: 'manifest' } });
    expect(parseMssPath('/demo.isml/QualityLevels(309000)/Fragments(video=14213333)')).toEqual({
      name: 'demo',
      request: { kind: 'fragment', bitrate: 309000, track: 'video', time: 14213333, infoOnly: false },
    });
    expect(parseMssPath('/demo.isml/QualityLevels(63000)/FragmentInfo(audio=0)')).toMatchObject({
      request: { track: 'audio', time: 0, infoOnly: true },
    });
  });

  it('says what is wrong with a malformed fragment URL', () => {
    const error = (path: string) => (parseMssPath(path) as { error?: string }).error;
    expect(error('/demo.isml/QualityLevels(abc)/Fragments(video=1)')).toBe(
      'bad bitrate "abc": a positive integer is expected',
    );
    expect(error('/demo.isml/QualityLevels(0)/Fragments(video=1)')).toMatch(/^bad bitrate "0"/);
    expect(error('/demo.isml/QualityLevels(1000)/Fragments(video=-5)')).toBe(
      'bad fragment time "-5": an integer of 100 ns units is expected',
    );
    expect(error('/demo.isml/QualityLevels(1000)/Fragments(video=99999999999999999999)')).toMatch(
      /^bad fragment time/,
    );
    expect(error('/demo.isml/QualityLevels(1000)/Fragments(text=1)')).toMatch(/^bad fragment "text=1"/);
    expect(error('/demo.isml/QualityLevels(1000)/Fragments(video)')).toMatch(/^bad fragment "video"/);
    expect(error('/demo.isml/other')).toMatch(/^not a Smooth Streaming resource/);
  });

  it('leaves other paths alone', () => {
    for (const path of [
      '/demo/index.m3u8',
      '/.isml/manifest',
      'demo.isml/manifest',
      '/%E0%A4%A.isml/manifest',
    ])
      expect(parseMssPath(path)).toBeUndefined();
  });

  it('never throws on any path, and a request it reads names a safe time and a known track (10^4 cases)', () => {
    const part = fc.oneof(
      fc.string(),
      fc.constantFrom('.isml/', 'manifest', 'QualityLevels(', ')/Fragments(', 'video=', 'audio=', ')', '%'),
      fc.nat().map(String),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const parsed = parseMssPath(`/${parts.join('')}`);
        if (!parsed) return;
        expect(parsed.name).not.toMatch(/[\n\r]/);
        if ('error' in parsed) expect(parsed.error.length).toBeLessThan(200);
        else if (parsed.request.kind === 'fragment') {
          expect(Number.isSafeInteger(parsed.request.time)).toBe(true);
          expect(['video', 'audio']).toContain(parsed.request.track);
          expect(parsed.request.bitrate).toBeGreaterThan(0);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});
