/** HLS of a stream or a location's published stream: /{name}/index.m3u8 (docs/media.md), names may hold '/'. */
export function playbackUrl(name: string): string {
  return `/${name.split('/').map(encodeURIComponent).join('/')}/index.m3u8`;
}
