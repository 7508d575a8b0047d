import { describe, expect, it, vi } from 'vitest';
import { EditOwners } from './edit-owners.js';

const item = ['streams', 'cam'];

describe('EditOwners', () => {
  it('gives each changed field of an item to the page it was edited on', () => {
    const owners = new EditOwners();
    const listener = vi.fn();
    owners.subscribe(listener);
    const first = { max_sessions: 7 };
    owners.attribute(item, undefined, first, '/standalone/cam/output');
    const second = { ...first, cluster_key: 'k' };
    owners.attribute(item, first, second, '/standalone/cam/input');
    expect(listener).toHaveBeenCalledTimes(2);

    expect(owners.editsOf(item, second, '/standalone/cam/input')).toEqual({ cluster_key: 'k' });
    expect(owners.editsOf(item, second, '/standalone/cam/output')).toEqual({ max_sessions: 7 });
    // A field no page owns goes with whichever Save comes first.
    expect(owners.editsOf(item, { ...second, title: 't' }, '/standalone/cam/input')).toEqual({
      cluster_key: 'k',
      title: 't',
    });
  });

  it('names the pages still holding edits; a saved field no longer counts', () => {
    const owners = new EditOwners();
    owners.attribute(item, undefined, { max_sessions: 7, cluster_key: 'k' }, '/standalone/cam/output');
    owners.attribute(
      item,
      { max_sessions: 7 },
      { max_sessions: 7, cluster_key: 'k' },
      '/standalone/cam/input',
    );
    const edits = { streams: { cam: { max_sessions: 7, cluster_key: 'k' } } };
    expect([...owners.ownersWithEdits(edits)].sort()).toEqual([
      '/standalone/cam/input',
      '/standalone/cam/output',
    ]);
    expect([...owners.ownersWithEdits({ streams: { cam: { max_sessions: 7 } } })]).toEqual([
      '/standalone/cam/output',
    ]);
  });
});
