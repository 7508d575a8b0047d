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

/**
 * Where a file plays (COMMON16 playback URLs): /{prefix}/{subpath}/{file}, each name URL-encoded;
 * a prefix may hold '/'.
 */
export function filePlayPath(prefix: string, dir: string, name: string): string {
  const parts = [...prefix.split('/'), ...normalizeSubpath(dir).split('/'), name].filter((p) => p !== '');
  return `/${parts.map(encodeURIComponent).join('/')}`;
}

/** The output links shown beside the list when a video is open (spec 002 §2 VOD browser). */
export function fileOutputLinks(origin: string, playPath: string): { label: string; url: string }[] {
  const base = `${origin}${playPath}`;
  return [
    { label: 'HLS', url: `${base}/index.m3u8` },
    { label: 'DASH', url: `${base}/index.mpd` },
    { label: 'MPEG-TS', url: `${base}/mpegts` },
    { label: 'MP4', url: base },
  ];
}
