/** The editable rows of a mirror's Server URL list (spec 001 §2 Mirror item Input). */
export interface UrlRow {
  id: number;
  url: string;
}

export const isEmptyUrlRow = (row: UrlRow): boolean => row.url === '';

export const urlsToRows = (urls: readonly string[] | null | undefined, nextId: () => number): UrlRow[] =>
  (urls ?? []).map((url) => ({ id: nextId(), url }));

/** The urls in row order without empty rows; none is null (the key removed). */
export function rowsToUrls(rows: readonly UrlRow[]): string[] | null {
  const urls = rows.map((row) => row.url).filter((url) => url !== '');
  return urls.length > 0 ? urls : null;
}

/** A url typed into a row: whitespace stripped as typed (spec 000 §5 Mirror url). */
export const typedUrl = (text: string): string => text.replace(/\s+/g, '');

/** Each row's label: 'Server URL N' for the urls, 'New URL' for the empty row kept last. */
export function urlRowLabel(rows: readonly UrlRow[], index: number): string {
  return index === rows.length - 1 && rows[index] !== undefined && isEmptyUrlRow(rows[index])
    ? 'New URL'
    : `Server URL ${index + 1}`;
}

/** The rows with an empty one kept last, for the next url. */
export function withNewRow(rows: UrlRow[], nextId: () => number): UrlRow[] {
  const last = rows[rows.length - 1];
  return last !== undefined && isEmptyUrlRow(last) ? rows : [...rows, { id: nextId(), url: '' }];
}

/** A row left empty goes when it loses focus, unless it is the new row at the end. */
export function dropEmptyRow(rows: UrlRow[], id: number): UrlRow[] {
  const index = rows.findIndex((row) => row.id === id);
  const row = rows[index];
  if (!row || !isEmptyUrlRow(row) || index === rows.length - 1) return rows;
  return rows.filter((r) => r.id !== id);
}
