import { describe, expect, it, vi } from 'vitest';
import { LiveStore } from './live-store.js';

const config = { rtmp: 1935, http: [80], streams: { a: { title: 'A' }, b: { title: 'B' } } };

describe('LiveStore', () => {
  it('applies server deltas sharing untouched subtrees', () => {
    const store = new LiveStore();
    store.replaceServer(config);
    const before = store.getState().view;
    store.applyServerDelta({ streams: { a: { title: 'A2' } } });
    const after = store.getState().view;
    expect(after.streams?.a?.title).toBe('A2');
    expect(after.streams?.b).toBe(before.streams?.b);
    expect(after.http).toBe(before.http);
  });

  it('notifies on each change and not for an empty delta', () => {
    const store = new LiveStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.replaceServer(config);
    store.applyServerDelta({});
    store.applyServerDelta(null);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('lays edits over the server view and clears them once the server matches', () => {
    const store = new LiveStore();
    store.replaceServer(config);
    store.edit(['rtmp'], 1936);
    store.edit(['streams', 'a', 'title'], 'mine');
    expect(store.getState().view.rtmp).toBe(1936);
    expect(store.getState().edits).toEqual({ rtmp: 1936, streams: { a: { title: 'mine' } } });
    store.applyServerDelta({ rtmp: 1936 });
    expect(store.getState().edits).toEqual({ streams: { a: { title: 'mine' } } });
  });

  it('keeps an edit over a server change elsewhere in the same item', () => {
    const store = new LiveStore();
    store.replaceServer(config);
    store.edit(['streams', 'a', 'title'], 'mine');
    store.applyServerDelta({ streams: { a: { static: true } } });
    expect(store.getState().view.streams?.a).toEqual({ title: 'mine', static: true });
  });

  it('shows a saved delta as pending until the server confirms it', () => {
    const store = new LiveStore();
    store.replaceServer(config);
    store.edit(['rtmp'], 1936);
    store.markSaved({ rtmp: 1936 });
    expect(store.getState().edits).toEqual({});
    expect(store.getState().view.rtmp).toBe(1936);
    store.clearPending();
    expect(store.getState().view.rtmp).toBe(1935);
    store.applyServerDelta({ rtmp: 1936 });
    expect(store.getState().view.rtmp).toBe(1936);
  });

  it('deletes keys with null edits', () => {
    const store = new LiveStore();
    store.replaceServer(config);
    store.edit(['http'], null);
    expect(store.getState().view).not.toHaveProperty('http');
    expect(store.getState().edits).toEqual({ http: null });
  });

  it('applies a delta in time that grows with the delta, not the config', () => {
    const streams: Record<string, { title: string }> = {};
    for (let i = 0; i < 200_000; i++) streams[`s${i}`] = { title: `S${i}` };
    const store = new LiveStore();
    store.replaceServer({ streams });
    store.edit(['rtmp'], 1936);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) store.applyServerDelta({ streams: { [`s${i}`]: { title: 'x' } } });
    const perDeltaMs = (performance.now() - started) / 1000;
    // Copying 200,000 keys once takes several ms; a delta that shared nothing would cost that each time.
    expect(perDeltaMs).toBeLessThan(1);
  });
});
