/** A VOD's source paths (`urls`, spec 002 §2 VOD overview) as the rows the console edits. */
export interface VodUrl {
  url: string;
  [option: string]: unknown;
}

export interface PathRow {
  id: number;
  path: string;
  /** The stored entry the row came from: options besides `url` stay with the path. */
  entry?: VodUrl;
}

/** The spec's label of the empty row kept last. */
export const NEW_PATH = 'New path';

const isEmpty = (row: PathRow) => row.path === '';

export const urlsToPathRows = (urls: readonly VodUrl[] | null | undefined, nextId: () => number): PathRow[] =>
  (urls ?? []).map((entry) => ({ id: nextId(), path: entry.url, entry }));

/** The stored list in row order without empty rows; none is null (the key removed). */
export function pathRowsToUrls(rows: readonly PathRow[]): VodUrl[] | null {
  const urls = rows.filter((row) => !isEmpty(row)).map((row) => ({ ...row.entry, url: row.path }));
  return urls.length > 0 ? urls : null;
}

/** The rows with an empty one kept last, for the next path. */
export function withNewPathRow(rows: PathRow[], nextId: () => number): PathRow[] {
  const last = rows[rows.length - 1];
  return last !== undefined && isEmpty(last) ? rows : [...rows, { id: nextId(), path: '' }];
}

/** Spec 002 §5: a path row emptied is removed when it loses focus (the new row at the end stays). */
export function dropEmptyPathRow(rows: PathRow[], id: number): PathRow[] {
  const index = rows.findIndex((row) => row.id === id);
  const row = rows[index];
  if (!row || !isEmpty(row) || index === rows.length - 1) return rows;
  return rows.filter((r) => r.id !== id);
}

/** 'Path N' for a stored path, 'New path' for the empty row kept last. */
export function pathRowLabel(rows: readonly PathRow[], index: number): string {
  const row = rows[index];
  return index === rows.length - 1 && row !== undefined && isEmpty(row) ? NEW_PATH : `Path ${index + 1}`;
}

/**
 * The source path number a row's 'browse' link opens (vod-item-tree, spec 002 §2): its index among
 * the saved paths, which the server's list_files takes; none while the row's path is not saved there.
 */
export function browseNumber(saved: readonly VodUrl[] | null | undefined, path: string): number | undefined {
  const index = (saved ?? []).findIndex((entry) => entry.url === path);
  return path !== '' && index >= 0 ? index : undefined;
}
