import { describe, expect, it } from 'vitest';
import { desiredStreams, reconcile } from './stream-spec.js';

describe('reconcile', () => {
  const base = {
    streams: { a: { urls: [{ url: 'test://' }], static: true }, b: { urls: [{ url: 'udp://:1' }] } },
  };

  it('creates what is new and removes what is gone', () => {
    const running = desiredStreams({ streams: { old: { urls: [{ url: 'test://' }] } } });
    const actions = reconcile(running, desiredStreams(base));
    expect(actions.map((a) => [a.kind, 'spec' in a ? a.spec.name : a.name])).toEqual([
      ['remove', 'old'],
      ['create', 'a'],
      ['create', 'b'],
    ]);
  });

  it('restarts only a stream whose sources or packaging changed, and updates one whose title or mode did', () => {
    const running = desiredStreams(base);
    const next = desiredStreams({
      streams: {
        a: { urls: [{ url: 'test://' }], static: false, title: 'renamed', disabled: true },
        b: { urls: [{ url: 'udp://:2' }] },
      },
    });
    expect(reconcile(running, next).map((a) => [a.kind, 'spec' in a ? a.spec.name : a.name])).toEqual([
      ['update', 'a'],
      ['restart', 'b'],
    ]);
    expect(
      reconcile(
        running,
        desiredStreams({ ...base, streams: { ...base.streams, a: { ...base.streams.a, title: 'x' } } }),
      ),
    ).toEqual([]);
  });

  it('applies the documented defaults', () => {
    expect(desiredStreams(base).get('b')).toEqual({
      name: 'b',
      sources: [{ url: 'udp://:1' }],
      static: false,
      disabled: false,
      sourceTimeoutSeconds: 10,
      clientsTimeoutSeconds: 30,
      segmentDurationMs: 2000,
      segmentCount: 4,
      password: undefined,
      maxBitrateKbps: undefined,
      thumbnails: false,
      pushes: [],
      onPublish: undefined,
      protocols: undefined,
      maxSessions: undefined,
      prepushSeconds: 3,
      addAudioOnly: false,
    });
  });
});
