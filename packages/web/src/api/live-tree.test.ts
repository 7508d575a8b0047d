import { applyDelta } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyServerDelta, OverlayMemo, overlayAt, revisionOf, WIDE_KEYS } from './live-tree.js';

const wideStreams = (n: number) => {
  const streams: Record<string, { title: string }> = {};
  for (let i = 0; i < n; i++) streams[`s${i}`] = { title: `S${i}` };
  return streams;
};

describe('applyServerDelta', () => {
  it('copies narrow objects along the changed path and shares the rest', () => {
    const root = { stats: { uptime: 1 }, edit_auth: { login: 'a' } };
    const next = applyServerDelta(root, { stats: { uptime: 2 } }) as typeof root;
    expect(next).not.toBe(root);
    expect(next.stats).toEqual({ uptime: 2 });
    expect(root.stats.uptime).toBe(1);
    expect(next.edit_auth).toBe(root.edit_auth);
  });

  it('changes wide maps in place, bumping their revision, and gives the changed item a new identity', () => {
    const root = { streams: wideStreams(WIDE_KEYS) };
    const before = root.streams.s1;
    const next = applyServerDelta(root, {
      streams: { s1: { title: 'x' }, s2: null, extra: { title: 'E' } },
    }) as typeof root;
    expect(next.streams).toBe(root.streams);
    expect(revisionOf(next.streams)).toBe(1);
    expect(next.streams.s1).not.toBe(before);
    expect(next.streams.s1).toEqual({ title: 'x' });
    expect(next.streams).not.toHaveProperty('s2');
    expect(next.streams.s3).toEqual({ title: 'S3' });
  });

  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.integer(),
      fc.string(),
      fc.array(fc.integer(), { maxLength: 2 }),
      tie('object'),
    ),
    object: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('value'), { maxKeys: 3 }),
    delta: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.oneof(fc.constant(null), tie('value')), {
      maxKeys: 3,
    }),
  }));

  it('means what applyDelta means', () => {
    fc.assert(
      fc.property(json.object, json.delta, (a, d) => {
        const expected = applyDelta(structuredClone(a), d);
        expect(applyServerDelta(a, d)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('overlays', () => {
  const server = {
    rtmp: 1935,
    edit_auth: { login: 'admin', password: 'pw' },
    streams: { a: { title: 'A' } },
  };

  it('returns the server node itself when no overlay touches the path', () => {
    expect(overlayAt(server, [{ rtmp: 1 }], ['streams']).node).toBe(server.streams);
    expect(overlayAt(server, [{ rtmp: 1 }], ['streams']).layers).toEqual([]);
  });

  it('applies pending then edits under the path, a later scalar or null replacing', () => {
    const memo = new OverlayMemo();
    expect(
      memo.read(server, [{ edit_auth: { login: 'x' } }, { edit_auth: { password: 'y' } }], ['edit_auth']),
    ).toEqual({
      login: 'x',
      password: 'y',
    });
    expect(memo.read(server, [{ rtmp: 1 }, { rtmp: null }], ['rtmp'])).toBeUndefined();
    expect(memo.read(server, [{ edit_auth: null }, { edit_auth: { login: 'n' } }], ['edit_auth'])).toEqual({
      login: 'n',
    });
    expect(memo.read(server, [{ edit_auth: { login: 'x' } }], ['edit_auth', 'login'])).toBe('x');
  });

  it('keeps the identity of an overlaid value while its inputs are the same', () => {
    const memo = new OverlayMemo();
    const edits = { edit_auth: { login: 'x' } };
    expect(memo.read(server, [{}, edits], ['edit_auth'])).toBe(memo.read(server, [{}, edits], ['edit_auth']));
  });
});
