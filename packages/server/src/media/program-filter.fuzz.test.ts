import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subtitleTs } from '../../test/subtitle-ts-fixture.js';
import { ProgramFilter } from './program-filter.js';

/**
 * The program filter parses the PAT and PMT a source sends (anyone reaching the multicast group or
 * the HTTP origin) and rewrites them: mutated tables, truncated sections and stray lengths may not
 * throw, and what passes is whole 188-byte packets.
 */
const clip = subtitleTs(3);

const mutated = fc
  .array(fc.record({ at: fc.nat(clip.length - 1), value: fc.integer({ min: 0, max: 255 }) }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((flips) => {
    const bytes = Buffer.from(clip);
    // Most flips land in the tables (PAT and PMT open each second's 4 packets), where parsing is.
    for (const { at, value } of flips)
      bytes[(at % 2 === 0 ? (at % 4) * 188 + (at % 188) : at) % bytes.length] = value;
    return bytes;
  });

const filters = fc.constantFrom(
  () => new ProgramFilter(1),
  () => new ProgramFilter(2),
  () => new ProgramFilter(undefined, new Set([0x201])),
  () => new ProgramFilter(undefined, undefined, false),
  () => new ProgramFilter(1, new Set([0x200, 0x201]), false),
);

describe('ProgramFilter on hostile tables', () => {
  it('never throws and passes whole packets, whatever the PAT and PMT say', () => {
    fc.assert(
      fc.property(mutated, filters, (bytes, make) => {
        const filter = make();
        for (let o = 0; o < bytes.length; o += 188 * 4) {
          const out = filter.filter(bytes.subarray(o, o + 188 * 4));
          expect(out.length % 188).toBe(0);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});
