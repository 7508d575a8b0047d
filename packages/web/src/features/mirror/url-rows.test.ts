import { describe, expect, it } from 'vitest';
import { dropEmptyRow, rowsToUrls, typedUrl, urlRowLabel, urlsToRows, withNewRow } from './url-rows.js';

describe("a mirror's Server URL rows", () => {
  const ids = () => {
    let id = 0;
    return () => ++id;
  };

  it('turns urls into rows and back, dropping empty rows; none is null', () => {
    const rows = urlsToRows(['http://a', 'http://b'], ids());
    expect(rows).toEqual([
      { id: 1, url: 'http://a' },
      { id: 2, url: 'http://b' },
    ]);
    expect(rowsToUrls([...rows, { id: 3, url: '' }])).toEqual(['http://a', 'http://b']);
    expect(rowsToUrls([{ id: 1, url: '' }])).toBeNull();
    expect(urlsToRows(undefined, ids())).toEqual([]);
  });

  it('strips whitespace as a url is typed', () => {
    expect(typedUrl(' http://a :80 ')).toBe('http://a:80');
  });

  it("labels the urls 'Server URL N' and the empty last row 'New URL'", () => {
    const rows = [
      { id: 1, url: 'http://a' },
      { id: 2, url: 'http://b' },
      { id: 3, url: '' },
    ];
    expect(rows.map((_, i) => urlRowLabel(rows, i))).toEqual(['Server URL 1', 'Server URL 2', 'New URL']);
  });

  it('keeps one empty row last, and drops a row emptied elsewhere when it loses focus', () => {
    const next = ids();
    const rows = withNewRow(urlsToRows(['http://a', 'http://b'], next), next);
    expect(rows.map((r) => r.url)).toEqual(['http://a', 'http://b', '']);
    expect(withNewRow(rows, next)).toBe(rows);
    const emptied = rows.map((r) => (r.id === 1 ? { ...r, url: '' } : r));
    expect(dropEmptyRow(emptied, 1).map((r) => r.url)).toEqual(['http://b', '']);
    // The new row stays, and a row with a url is kept.
    expect(dropEmptyRow(emptied, 3)).toBe(emptied);
    expect(dropEmptyRow(emptied, 2)).toBe(emptied);
  });
});
