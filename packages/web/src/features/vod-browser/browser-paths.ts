/**
 * Directories inside one source path, as the Files API takes them in `subpath`: relative, '/'
 * between names, '' for the source path's root.
 */

/** A typed or linked directory as a subpath: no leading, trailing or doubled slashes. */
export function normalizeSubpath(text: string): string {
  return text
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

export const joinSubpath = (dir: string, name: string): string => normalizeSubpath(`${dir}/${name}`);

/** The directory above `dir`; the root's parent is the root. */
export function parentOf(dir: string): string {
  const parts = normalizeSubpath(dir).split('/');
  return parts.slice(0, -1).join('/');
}

/** The path field's text: the directory from the source path's root. */
export const shownPath = (dir: string): string => `/${normalizeSubpath(dir)}`;

/** A VOD file's name (COMMON16): PREFIX/RELATIVE/PATH, the name its URLs and file pages use. */
export const vodFileName = (prefix: string, dir: string, name: string): string =>
  [prefix, normalizeSubpath(dir), name].filter((part) => part !== '').join('/');
