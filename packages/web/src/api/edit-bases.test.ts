import { describe, expect, it } from 'vitest';
import { LiveStore } from './live-store.js';

const config = { config_revision: 'r1', streams: { a: { title: 'A' }, b: { title: 'B' } } };

function started() {
  const store = new LiveStore();
  store.replaceServer(structuredClone(config));
  return store;
}

describe('edits made at a revision (issue 17)', () => {
  it('remembers the revision of an item’s first edit and sends it for its save', () => {
    const store = started();
    store.edit(['streams', 'a', 'title'], 'mine');
    store.applyServerDelta({ config_revision: 'r2', streams: { b: { title: 'B2' } } });
    expect(store.baseFor([['streams', 'a']])).toBe('r1');
    // An item without edits saves at the revision shown.
    expect(store.baseFor([['streams', 'b']])).toBe('r2');
  });

  it('flags an edited item another save changed, not for its stats or other items', () => {
    const store = started();
    store.edit(['streams', 'a', 'title'], 'mine');
    store.applyServerDelta({ streams: { a: { stats: { alive: true } } } });
    store.applyServerDelta({ config_revision: 'r2', streams: { b: { title: 'B2' } } });
    expect(store.getState().elsewhere).toEqual({});
    store.applyServerDelta({ config_revision: 'r3', streams: { a: { title: 'theirs' } } });
    expect(store.getState().elsewhere).toEqual({ 'streams\u0000a': true });
  });

  it('does not flag the echo of its own save; Reload drops the edits and the flag', () => {
    const store = started();
    store.edit(['streams', 'a', 'title'], 'mine');
    store.markSaved({ streams: { a: { title: 'mine' } } }, 'r2');
    store.edit(['streams', 'a', 'title'], 'more');
    store.applyServerDelta({ config_revision: 'r2', streams: { a: { title: 'mine' } } });
    store.clearPending(); // as confirmSaved does once the server's answer is in
    expect(store.getState().elsewhere).toEqual({});
    expect(store.baseFor([['streams', 'a']])).toBe('r2');
    store.applyServerDelta({ config_revision: 'r3', streams: { a: { title: 'theirs' } } });
    expect(store.getState().elsewhere).toEqual({ 'streams\u0000a': true });
    store.discardItem(['streams', 'a']);
    expect(store.getState().edits).toEqual({});
    expect(store.getState().elsewhere).toEqual({});
    expect(store.viewAt(store.getState(), ['streams', 'a', 'title'])).toBe('theirs');
  });
});
