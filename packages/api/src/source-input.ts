/**
 * Source URLs as an operator types them (spec 001 §5): http(s) addresses of HLS playlists and
 * MPEG-TS streams become the schemes the server reads them with; any other http(s) address is
 * refused when a stream is created, since the server could not tell what to expect from it.
 */

/**
 * 'specify {address} or {address} protocol' in spec 001 §5, its two placeholders being the schemes
 * an http(s) address converts to.
 */
export const UNKNOWN_HTTP_SOURCE = 'specify hls:// or tshttp:// protocol';

const HTTP = /^(https?):\/\//i;

/** The address without its query and fragment: "ending .m3u8" is about the path. */
const pathOf = (url: string) => url.replace(/[?#].*$/, '');

/**
 * http ending .m3u8 → hls, https ending .m3u8 → hlss; ending ts or containing /udp/ → tshttp or
 * tshttps; anything else unchanged.
 */
export function convertSourceUrl(url: string): string {
  const match = HTTP.exec(url);
  if (!match) return url;
  const secure = match[1]!.toLowerCase() === 'https';
  const rest = url.slice(match[0].length);
  const path = pathOf(url).toLowerCase();
  if (path.endsWith('.m3u8')) return `${secure ? 'hlss' : 'hls'}://${rest}`;
  if (path.endsWith('ts') || path.includes('/udp/')) return `${secure ? 'tshttps' : 'tshttp'}://${rest}`;
  return url;
}

/** Why a new stream can't take this source URL (after conversion), or undefined when it can. */
export function sourceUrlProblem(url: string): string | undefined {
  return HTTP.test(convertSourceUrl(url)) ? UNKNOWN_HTTP_SOURCE : undefined;
}
