import { applyDelta, deepEqual } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { LiveView } from './live-view.js';

describe('LiveView', () => {
  it('answers a delta holding only the paths changed since a version', () => {
    const view = new LiveView();
    view.applyDiff({ streams: { a: { title: 'A' }, b: { title: 'B' } }, http: [80] });
    const seen = view.currentVersion;
    const before = view.snapshot;
    view.set(['streams', 'a', 'stats', 'alive'], true);
    view.set(['streams', 'a', 'stats', 'bitrate'], 1200);
    const result = view.deltaSince(seen)!;
    expect(result.complete).toBe(true);
    expect(result.delta).toEqual({ streams: { a: { stats: { alive: true, bitrate: 1200 } } } });
    expect(deepEqual(applyDelta(before, result.delta), view.snapshot)).toBe(true);
  });

  it('sends null for deleted items, and not a phantom for stats of a deleted item', () => {
    const view = new LiveView();
    view.applyDiff({ streams: { a: { title: 'A' } } });
    const seen = view.currentVersion;
    view.set(['streams', 'a', 'stats', 'alive'], true);
    view.applyDiff({ streams: { a: null } });
    expect(view.deltaSince(seen)!.delta).toEqual({ streams: { a: null } });
  });

  it('sends null for a key deleted deep inside an item, so a reader merging the delta drops it too', () => {
    const view = new LiveView();
    view.applyDiff({
      streams: { a: { meta: { iptv: true, group: 'News' }, auth: { url: 'http://x/tv/auth' } } },
    });
    const seen = view.currentVersion;
    const before = view.snapshot;
    view.applyDiff({ streams: { a: { meta: { iptv: null }, auth: { url: null } } } });
    const { delta } = view.deltaSince(seen)!;
    expect(delta).toEqual({ streams: { a: { meta: { iptv: null }, auth: { url: null } } } });
    expect(applyDelta(before, delta)).toEqual({ streams: { a: { meta: { group: 'News' }, auth: {} } } });
    expect(deepEqual(applyDelta(before, delta), view.snapshot)).toBe(true);
  });

  it('does not log a value that did not change', () => {
    const view = new LiveView();
    view.set(['stats', 'uptime'], 1);
    const seen = view.currentVersion;
    view.set(['stats', 'uptime'], 1);
    expect(view.currentVersion).toBe(seen);
    expect(view.deltaSince(seen)!.delta).toEqual({});
  });

  it('splits a large delta into partial answers that add up to the whole', () => {
    const view = new LiveView();
    const before = view.snapshot;
    for (let i = 0; i < 25; i++) view.set(['streams', `s${i}`, 'title'], `T${i}`);
    let version = 0;
    let state: Record<string, unknown> = before;
    let rounds = 0;
    for (;;) {
      const result = view.deltaSince(version, 10)!;
      state = applyDelta(state, result.delta);
      version = result.version;
      rounds++;
      if (result.complete) break;
    }
    expect(rounds).toBe(3);
    expect(deepEqual(state, view.snapshot)).toBe(true);
  });

  it('asks for a full read when its log no longer reaches back far enough', () => {
    const view = new LiveView(10);
    for (let i = 0; i < 30; i++) view.set(['x', String(i)], i);
    expect(view.deltaSince(0)).toBeNull();
    expect(view.deltaSince(view.currentVersion)).not.toBeNull();
  });

  it('keeps the cost of a delta independent of the number of items', () => {
    const view = new LiveView();
    const streams: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++)
      streams[`s${i}`] = { title: `T${i}`, urls: [{ url: `udp://239.0.0.1:${i}` }] };
    view.applyDiff({ streams });
    const seen = view.currentVersion;
    view.set(['streams', 's5', 'stats', 'alive'], true);
    const started = performance.now();
    const result = view.deltaSince(seen)!;
    expect(Object.keys(result.delta.streams as object)).toEqual(['s5']);
    // Not a timing assertion of the product: a guard that the delta does not walk all 20,000 items.
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('keeps no change log nobody will read: each second of stats no longer piles up', () => {
    const view = new LiveView();
    // A day of one stream's stats with no console open (the soak's server grew by this).
    for (let i = 0; i < 50_000; i++) view.set(['streams', 'demo', 'stats', 'bitrate'], i);
    expect(view.loggedChanges).toBeLessThan(2000);
  });

  it('keeps the changes a reader has not read, and drops them once it has', () => {
    const view = new LiveView();
    const reader: { version: number | undefined } = { version: undefined };
    const untrack = view.track(reader);
    const before = view.snapshot;
    reader.version = view.currentVersion;
    const seen = structuredClone(before);
    for (let i = 0; i < 5000; i++) view.set(['streams', `s${i % 50}`, 'stats', 'bitrate'], i);
    const result = view.deltaSince(reader.version)!;
    expect(result.complete).toBe(true);
    expect(deepEqual(applyDelta(seen, result.delta), view.snapshot)).toBe(true);
    reader.version = result.version;
    for (let i = 0; i < 5000; i++) view.set(['streams', 's0', 'stats', 'bitrate'], -i);
    expect(view.loggedChanges).toBeLessThan(6000);
    expect(view.deltaSince(reader.version)!.delta).toEqual({
      streams: { s0: { stats: { bitrate: -4999 } } },
    });
    untrack();
    for (let i = 0; i < 5000; i++) view.set(['streams', 's1', 'stats', 'bitrate'], -i);
    expect(view.loggedChanges).toBeLessThan(2000);
  });
});
