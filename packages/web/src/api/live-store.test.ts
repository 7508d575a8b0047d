import { describe, expect, it, vi } from 'vitest';
import { LiveStore } from './live-store.js';

const config = { rtmp: 1935, http: [80], streams: { a: { title: 'A' }, b: { title: 'B' } } };

function started() {
  const store = new LiveStore();
  store.replaceServer(structuredClone(config));
  const at = (...path: string[]) => store.viewAt(store.getState(), path);
  return { store, at };
}

describe('LiveStore', () => {
  it('applies server deltas sharing untouched subtrees', () => {
    const { store, at } = started();
    const b = at('streams', 'b');
    store.applyServerDelta({ streams: { a: { title: 'A2' } } });
    expect(at('streams', 'a', 'title')).toBe('A2');
    expect(at('streams', 'b')).toBe(b);
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
    const { store, at } = started();
    store.edit(['rtmp'], 1936);
    store.edit(['streams', 'a', 'title'], 'mine');
    expect(at('rtmp')).toBe(1936);
    expect(at('streams', 'a')).toEqual({ title: 'mine' });
    expect(store.getState().edits).toEqual({ rtmp: 1936, streams: { a: { title: 'mine' } } });
    store.applyServerDelta({ rtmp: 1936 });
    expect(store.getState().edits).toEqual({ streams: { a: { title: 'mine' } } });
  });

  it('keeps an edit over a server change elsewhere in the same item', () => {
    const { store, at } = started();
    store.edit(['streams', 'a', 'title'], 'mine');
    store.applyServerDelta({ streams: { a: { static: true } } });
    expect(at('streams', 'a')).toEqual({ title: 'mine', static: true });
  });

  it('shows a saved delta as pending until the server confirms it', () => {
    const { store, at } = started();
    store.edit(['rtmp'], 1936);
    store.markSaved({ rtmp: 1936 });
    expect(store.getState().edits).toEqual({});
    expect(at('rtmp')).toBe(1936);
    store.clearPending();
    expect(at('rtmp')).toBe(1935);
    store.applyServerDelta({ rtmp: 1936 });
    expect(at('rtmp')).toBe(1936);
  });

  it('keeps what was typed during a save', () => {
    const { store } = started();
    store.edit(['rtmp'], 1936);
    store.edit(['http'], [81]);
    store.markSaved({ rtmp: 1936 });
    expect(store.getState().edits).toEqual({ http: [81] });
  });

  it('records edits against saved-but-unconfirmed values', () => {
    const { store } = started();
    store.edit(['rtmp'], 1936);
    store.markSaved({ rtmp: 1936 });
    store.edit(['rtmp'], 1936);
    expect(store.getState().edits).toEqual({});
  });

  it('deletes keys with null edits', () => {
    const { store, at } = started();
    store.edit(['http'], null);
    expect(at('http')).toBeUndefined();
    expect(store.getState().edits).toEqual({ http: null });
  });

  it('discards the edits of a form scope', () => {
    const { store } = started();
    store.edit(['rtmp'], 1);
    store.edit(['http'], [2]);
    store.discard(['rtmp']);
    expect(store.getState().edits).toEqual({ http: [2] });
  });
});
