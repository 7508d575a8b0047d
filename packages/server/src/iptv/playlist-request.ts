/** A subscriber's playlist request, `/tv/playlists/{id}.m3u?key=KEY[&type=mpegts]`. */
export interface PlaylistRequest {
  id: number;
  key: string;
  type: 'hls' | 'mpegts';
}

export const PLAYLIST_PREFIX = '/tv/playlists/';
/** Longer keys are no key this server made (its keys are 32 hex characters). */
const MAX_KEY_LENGTH = 256;

/**
 * Reads a request target; undefined for anything malformed (answered 404 whatever part was wrong):
 * an id that isn't a positive integer, no key or two, a type other than hls or mpegts, bad escapes.
 * Other query parameters (apps add their own) are ignored.
 */
export function parsePlaylistRequest(target: string): PlaylistRequest | undefined {
  if (target.length > 4096 || !target.startsWith(PLAYLIST_PREFIX)) return undefined;
  const q = target.indexOf('?');
  const file = target.slice(PLAYLIST_PREFIX.length, q < 0 ? undefined : q);
  const match = /^([1-9]\d{0,14})\.m3u8?$/.exec(file);
  if (!match) return undefined;
  let query: URLSearchParams;
  try {
    const raw = q < 0 ? '' : target.slice(q + 1);
    // URLSearchParams turns bad escapes into U+FFFD silently: refuse them instead.
    decodeURIComponent(raw.replace(/\+/g, ' '));
    query = new URLSearchParams(raw);
  } catch {
    return undefined;
  }
  const keys = query.getAll('key');
  const types = query.getAll('type');
  const key = keys[0];
  if (keys.length !== 1 || !key || key.length > MAX_KEY_LENGTH || types.length > 1) return undefined;
  const type = types[0] ?? 'hls';
  if (type !== 'hls' && type !== 'mpegts') return undefined;
  return { id: Number(match[1]), key, type };
}
