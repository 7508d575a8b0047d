import { describe, expect, it } from 'vitest';
import {
  browseNumber,
  dropEmptyPathRow,
  NEW_PATH,
  pathRowLabel,
  pathRowsToUrls,
  urlsToPathRows,
  withNewPathRow,
} from './vod-paths.js';

let id = 0;
const nextId = () => ++id;

describe('VOD source path rows (spec 002 §2, §5)', () => {
  it("shows each path, then an empty 'New path' row", () => {
    const rows = withNewPathRow(urlsToPathRows([{ url: '/a' }, { url: '/b' }], nextId), nextId);
    expect(rows.map((r) => r.path)).toEqual(['/a', '/b', '']);
    expect(rows.map((_, i) => pathRowLabel(rows, i))).toEqual(['Path 1', 'Path 2', NEW_PATH]);
  });

  it('removes a row emptied on blur, but keeps the new row at the end', () => {
    const rows = withNewPathRow(urlsToPathRows([{ url: '/a' }, { url: '/b' }], nextId), nextId);
    const emptied = rows.map((r, i) => (i === 0 ? { ...r, path: '' } : r));
    const kept = dropEmptyPathRow(emptied, emptied[0]!.id);
    expect(kept.map((r) => r.path)).toEqual(['/b', '']);
    expect(dropEmptyPathRow(kept, kept[1]!.id)).toBe(kept);
  });

  it('saves the paths without empty rows, keeping options of each entry; none removes the key', () => {
    const rows = urlsToPathRows([{ url: '/a', extra: 1 }], nextId);
    expect(pathRowsToUrls([...rows, { id: nextId(), path: '' }])).toEqual([{ url: '/a', extra: 1 }]);
    expect(pathRowsToUrls([{ id: nextId(), path: '' }])).toBeNull();
  });

  it('browses a saved path by its index; an unsaved one has no browse link', () => {
    const saved = [{ url: '/a' }, { url: '/b' }];
    expect(browseNumber(saved, '/b')).toBe(1);
    expect(browseNumber(saved, '/c')).toBeUndefined();
    expect(browseNumber(undefined, '')).toBeUndefined();
  });
});
