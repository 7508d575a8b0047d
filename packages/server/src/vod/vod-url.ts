/**
 * The VOD playback URL family: /{prefix}/{path} (the file as it is) and /{prefix}/{path}/{resource}
 * (index.m3u8, its media playlists and segments, mpegts, and the resources other formats add:
 * index.mpd, preview.jpg …). A prefix may hold '/'; the longest configured one wins. Pure: nothing
 * here touches the disk (vod-locate.ts finds the file).
 */

/** The HLS and MPEG-TS resources answered by vod-hls.ts and vod-mpegts.ts. */
export const HLS_RESOURCE =
  /^(?:index\.m3u8|video\.m3u8|audio-(\d{1,9})\.m3u8|seg-(\d{1,9})\.ts|a-(\d{1,9})-(\d{1,9})\.ts|mpegts)$/;

/** One reading of a request path: the file (path parts inside the VOD) and what of it is asked for. */
export interface VodTarget {
  /** The file's parts under the VOD's roots, decoded: ['shows', 'a.mp4']. */
  parts: string[];
  /** '' for the file as it is, else the last part of the URL ('index.m3u8', 'seg-3.ts' …). */
  resource: string;
}

export interface VodUrl {
  prefix: string;
  /**
   * The readings to try, in order: with a resource suffix the file is the path before it; when no
   * file is there the whole path may still be a file (a directory holding an uploaded index.m3u8).
   */
  targets: VodTarget[];
}

/**
 * The VOD a request path (no query) is under and the file it names; undefined when no configured
 * prefix matches (the path is someone else's); `{error}` (400) for a path that may never name a
 * file: '..', '.', empty parts, NUL, backslash or an encoded '/', broken percent-encoding.
 * `isResource` tells which last parts are resources (the HLS ones and those of other formats).
 */
export function parseVodUrl(
  path: string,
  prefixes: readonly string[],
  isResource: (part: string) => boolean,
): VodUrl | { prefix: string; error: string } | undefined {
  if (!path.startsWith('/')) return undefined;
  const raw = path.slice(1).split('/');
  const decoded = raw.map(decodePart);
  const prefix = longestPrefix(decoded, prefixes);
  if (prefix === undefined) return undefined;
  const rest = decoded.slice(prefix.split('/').length);
  const rawRest = raw.slice(prefix.split('/').length);
  if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) return undefined;
  for (let i = 0; i < rest.length; i++) {
    const problem = partProblem(rest[i], rawRest[i]!);
    if (problem) return { prefix, error: `${problem} in ${prefix}/${rawRest.join('/')}` };
  }
  const parts = rest as string[];
  const whole: VodTarget = { parts, resource: '' };
  const last = parts[parts.length - 1]!;
  if (parts.length >= 2 && isResource(last))
    return { prefix, targets: [{ parts: parts.slice(0, -1), resource: last }, whole] };
  return { prefix, targets: [whole] };
}

/** The longest prefix (each of its parts equal to the path's) among `prefixes`, if any. */
function longestPrefix(
  decoded: readonly (string | undefined)[],
  prefixes: readonly string[],
): string | undefined {
  let best: string | undefined;
  for (const prefix of prefixes) {
    if (!prefix || (best !== undefined && prefix.length <= best.length)) continue;
    const parts = prefix.split('/');
    if (parts.length >= decoded.length) continue;
    if (parts.every((p, i) => decoded[i] === p)) best = prefix;
  }
  return best;
}

function decodePart(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** Why a decoded path part may not name anything inside a root; undefined when it may. */
function partProblem(part: string | undefined, raw: string): string | undefined {
  if (part === undefined) return `broken percent-encoding '${raw}'`;
  if (part === '') return 'an empty path part';
  if (part === '.' || part === '..') return `'${part}' is not allowed`;
  if (part.includes('\0')) return 'a NUL byte is not allowed';
  if (part.includes('/') || part.includes('\\')) return `an encoded '/' or '\\' is not allowed ('${raw}')`;
  return undefined;
}

/** The file's name as sessions, stats and the console know it: PREFIX/PATH. */
export const vodFileName = (prefix: string, parts: readonly string[]): string =>
  `${prefix}/${parts.join('/')}`;
