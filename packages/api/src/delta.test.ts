import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDelta, deepEqual, diff } from './delta.js';

describe('applyDelta', () => {
  it('merges nested objects and deletes keys given null', () => {
    const config = {
      streams: { a: { urls: [{ url: 'udp://1' }], title: 'A' }, b: { title: 'B' } },
      http: [80],
    };
    const next = applyDelta(config, { streams: { a: { title: null, static: true }, b: null }, http: [8080] });
    expect(next).toEqual({ streams: { a: { urls: [{ url: 'udp://1' }], static: true } }, http: [8080] });
  });

  it('leaves its arguments unchanged and shares untouched subtrees', () => {
    const config = { streams: { a: { title: 'A' }, b: { title: 'B' } } };
    const frozen = JSON.stringify(config);
    const next = applyDelta(config, { streams: { a: { title: 'A2' } } });
    expect(JSON.stringify(config)).toBe(frozen);
    expect(next.streams.b).toBe(config.streams.b);
  });

  it('replaces arrays whole and drops nulls inside new values', () => {
    expect(applyDelta({ a: [1, 2, 3] }, { a: [4] })).toEqual({ a: [4] });
    expect(applyDelta({}, { s: { x: { title: 'T', comment: null } } })).toEqual({ s: { x: { title: 'T' } } });
  });

  it('replaces a scalar with an object and an object with a scalar', () => {
    expect(applyDelta({ a: 1 }, { a: { b: 2 } })).toEqual({ a: { b: 2 } });
    expect(applyDelta({ a: { b: 2 } }, { a: 3 })).toEqual({ a: 3 });
  });
});

describe('diff', () => {
  it('is undefined for equal values and holds only what changed', () => {
    expect(diff({ a: { b: 1 } }, { a: { b: 1 } })).toBeUndefined();
    expect(diff({ a: { b: 1, c: 2 }, d: 1 }, { a: { b: 1, c: 3 }, d: 1 })).toEqual({ a: { c: 3 } });
    expect(diff({ a: 1, b: 2 }, { a: 1 })).toEqual({ b: null });
  });

  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.array(tie('value'), { maxLength: 3 }),
      tie('object'),
    ),
    object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'stats'), tie('value'), { maxKeys: 4 }),
  }));

  it('round-trips: applyDelta(a, diff(a, b)) deep-equals b', () => {
    fc.assert(
      fc.property(json.object, json.object, (a, b) => {
        const d = diff(a, b);
        expect(deepEqual(d === undefined ? a : applyDelta(a, d), b)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
