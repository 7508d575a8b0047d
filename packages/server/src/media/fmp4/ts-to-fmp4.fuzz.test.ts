import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../../test/ts-fixtures.js';
import { tsToFmp4 } from './ts-to-fmp4.js';

/**
 * The remuxer reads archived and live segments, which are bytes a publisher sent: damaged ones
 * (flipped bytes, cut or repeated runs) either remux or fail with an Error, never hang or crash.
 */
describe('fMP4 remuxer under damaged segments', () => {
  let segment: Buffer;
  beforeAll(() => {
    segment = makeClip({ seconds: 1, video: 'h264', audio: 'aac', width: 160, height: 96, gop: 25 });
  });

  it('remuxes or refuses with an Error, for 2000 damaged copies of a real segment', () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('flip'), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant('cut'), at: fc.nat(), length: fc.integer({ min: 1, max: 3000 }) }),
      fc.record({ kind: fc.constant('repeat'), at: fc.nat(), length: fc.integer({ min: 1, max: 3000 }) }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 20 }), (mutations) => {
        let bytes = Buffer.from(segment);
        for (const m of mutations) {
          const at = m.at % bytes.length;
          if (m.kind === 'flip') bytes[at] = m.value;
          else if (m.kind === 'cut')
            bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
          else bytes = Buffer.concat([bytes.subarray(0, at + m.length), bytes.subarray(at)]);
          if (bytes.length === 0) return;
        }
        try {
          const out = tsToFmp4(bytes);
          expect(out.init.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          expect(error).not.toBeInstanceOf(RangeError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses random bytes and random packet streams with an Error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 188 * 40 }), fc.boolean(), (raw, sync) => {
        const bytes = Buffer.from(raw);
        if (sync) for (let i = 0; i < bytes.length; i += 188) bytes[i] = 0x47;
        try {
          tsToFmp4(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
