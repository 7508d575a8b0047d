import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { directiveMet, parseLlDirectives } from './llhls-query.js';

describe('LL-HLS delivery directives', () => {
  it('reads _HLS_msn, _HLS_part and _HLS_skip beside other parameters', () => {
    expect(parseLlDirectives('token=a&_HLS_msn=12&_HLS_part=3')).toEqual({ msn: 12, part: 3 });
    expect(parseLlDirectives('_HLS_msn=0&_HLS_skip=v2')).toEqual({ msn: 0, skip: 'v2' });
    expect(parseLlDirectives('')).toEqual({});
  });

  it('refuses what RFC 8216bis §6.2.5.2 calls a bad request', () => {
    for (const query of [
      '_HLS_part=1',
      '_HLS_msn=01',
      '_HLS_msn=1.5',
      '_HLS_msn=-1',
      '_HLS_msn=',
      '_HLS_msn=1&_HLS_msn=1',
      '_HLS_skip=yes',
      '_HLS_msn=1000000000000000',
    ])
      expect(parseLlDirectives(query), query).toHaveProperty('error');
  });

  it('never throws, and what it accepts is whole numbers within range (10^4 fuzzed queries)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '_HLS_msn',
        '_HLS_part',
        '_HLS_skip',
        'token',
        '_HLS_',
        '%5FHLS_msn',
        '=',
        '&',
        'YES',
        'v2',
      ),
      fc.string({ maxLength: 12 }),
      fc.nat().map(String),
      fc.double().map(String),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const result = parseLlDirectives(pieces.join(''));
        if ('error' in result) return;
        for (const n of [result.msn, result.part])
          if (n !== undefined) expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
        if (result.part !== undefined) expect(result.msn).toBeDefined();
        if (result.skip !== undefined) expect(['YES', 'v2']).toContain(result.skip);
      }),
      { numRuns: 10_000 },
    );
  });

  it('is met by the part asked for, a later one, or the next segment when the part index runs past the end', () => {
    const at = (msn: number, parts: number, complete = false) => ({ msn, parts, complete });
    expect(directiveMet(at(5, 2), 5, 2)).toBe(false);
    expect(directiveMet(at(5, 3), 5, 2)).toBe(true);
    expect(directiveMet(at(6, 1), 5, 9)).toBe(true);
    expect(directiveMet(at(5, 4), 5, undefined)).toBe(false);
    expect(directiveMet(at(5, 4, true), 5, undefined)).toBe(true);
    expect(directiveMet(at(4, 4, true), 5, 0)).toBe(false);
  });
});
