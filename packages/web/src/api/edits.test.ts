import { applyDelta } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { type Path, mergeDeltas, pickKeys, pruneEdits, setEdit, subtractDelta } from './edits.js';
import { getIn } from './live-tree.js';

const server = {
  rtmp: 1935,
  http: [80],
  edit_auth: { login: 'admin', password: 'pw' },
  streams: { a: { title: 'A' } },
};

const at = (root: unknown) => (path: Path) => getIn(root, path);

describe('setEdit', () => {
  it('records the smallest delta against the server and applies to the typed value', () => {
    const edits = setEdit({}, server.edit_auth.login, ['edit_auth', 'login'], 'root');
    expect(edits).toEqual({ edit_auth: { login: 'root' } });
    expect(applyDelta(server, edits).edit_auth).toEqual({ login: 'root', password: 'pw' });
  });

  it('removes an edit set back to the server value, with its empty parents', () => {
    const edits = setEdit(
      setEdit({}, 'admin', ['edit_auth', 'login'], 'root'),
      'admin',
      ['edit_auth', 'login'],
      'admin',
    );
    expect(edits).toEqual({});
  });

  it('deletes with null, and forgets a deletion of what the server does not have', () => {
    expect(setEdit({}, 1935, ['rtmp'], null)).toEqual({ rtmp: null });
    expect(setEdit({}, undefined, ['rtsp'], null)).toEqual({});
    expect(setEdit({ rtsp: 554 }, undefined, ['rtsp'], null)).toEqual({});
  });

  it('replaces arrays whole and creates new objects whole', () => {
    expect(setEdit({}, [80], ['http'], [80, 8080])).toEqual({ http: [80, 8080] });
    expect(setEdit({}, undefined, ['meta'], { comment: 'x' })).toEqual({ meta: { comment: 'x' } });
  });

  it('returns the same object when nothing changes', () => {
    const edits = { rtmp: 1936 };
    expect(setEdit(edits, 1935, ['rtmp'], 1936)).toBe(edits);
  });
});

describe('pruneEdits', () => {
  it('drops the edits the server now matches and keeps the rest', () => {
    const edits = {
      rtmp: 1936,
      http: [80],
      edit_auth: { login: 'root', password: 'pw' },
      rtsp: null,
      streams: { a: { title: 'B' } },
    };
    expect(pruneEdits(edits, at(server))).toEqual({
      rtmp: 1936,
      edit_auth: { login: 'root' },
      streams: { a: { title: 'B' } },
    });
  });

  it('returns the same object when nothing matches', () => {
    const edits = { rtmp: 1936 };
    expect(pruneEdits(edits, at(server))).toBe(edits);
  });

  it('treats a new object as matching when the server holds it without its nulls', () => {
    expect(pruneEdits({ meta: { comment: 'x', drm_id: null } }, at({ meta: { comment: 'x' } }))).toEqual({});
  });
});

describe('subtractDelta', () => {
  it('removes what was saved and keeps what was typed during the save', () => {
    const edits = { rtmp: 1937, http: [81], edit_auth: { login: 'root', password: 'new' } };
    const saved = { rtmp: 1936, http: [81], edit_auth: { login: 'root' } };
    expect(subtractDelta(edits, saved)).toEqual({ rtmp: 1937, edit_auth: { password: 'new' } });
  });
});

describe('mergeDeltas and pickKeys', () => {
  it('merges nested deltas, the later winning', () => {
    expect(mergeDeltas({ a: { b: 1, c: 2 }, d: 1 }, { a: { b: null }, d: [2] })).toEqual({
      a: { b: null, c: 2 },
      d: [2],
    });
  });

  it('picks a form scope', () => {
    expect(pickKeys({ rtmp: 1, streams: { a: null } }, ['rtmp', 'http'])).toEqual({ rtmp: 1 });
  });
});
