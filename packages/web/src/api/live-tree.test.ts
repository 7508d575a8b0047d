import { applyDelta } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyServerDelta,
  CHANGE_LOG_LIMIT,
  changedKeysSince,
  OverlayMemo,
  overlayAt,
  revisionOf,
  WIDE_KEYS,
} from './live-tree.js';

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

  it('remembers which keys of a wide map each revision changed', () => {
    const root = { streams: wideStreams(WIDE_KEYS + 5) };
    expect(changedKeysSince(root.streams, 0)).toEqual([]);
    applyServerDelta(root, { streams: { s1: { title: 'x' }, s2: null } });
    applyServerDelta(root, { streams: { s3: { title: 'y' } } });
    expect(revisionOf(root.streams)).toBe(2);
    expect(changedKeysSince(root.streams, 0)).toEqual(['s1', 's2', 's3']);
    expect(changedKeysSince(root.streams, 1)).toEqual(['s3']);
    expect(changedKeysSince(root.streams, 2)).toEqual([]);
    // Narrow objects change identity instead; they have no log.
    expect(changedKeysSince({ a: 1 }, 0)).toEqual([]);
    expect(changedKeysSince({ a: 1 }, 3)).toBeUndefined();
  });

  it('forgets the oldest revisions past the log limit, and says so', () => {
    const root = { streams: wideStreams(WIDE_KEYS) };
    const perDelta = 1000;
    const deltas = Math.ceil(CHANGE_LOG_LIMIT / perDelta) + 2;
    for (let d = 0; d < deltas; d++) {
      const delta: Record<string, { title: string }> = {};
      for (let i = 0; i < perDelta; i++) delta[`k${d}-${i}`] = { title: 'n' };
      applyServerDelta(root, { streams: delta });
    }
    expect(changedKeysSince(root.streams, 0)).toBeUndefined();
    expect(changedKeysSince(root.streams, deltas - 1)).toHaveLength(perDelta);
    // Revision r is delta r - 1: after revision deltas - 3 come deltas - 3 and on.
    expect(changedKeysSince(root.streams, deltas - 3)?.[0]).toBe(`k${deltas - 3}-0`);
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
