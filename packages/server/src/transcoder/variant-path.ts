/**
 * The URL shapes of a transcoded stream's HLS variants: the master playlist /{name}/index.m3u8
 * lists /{name}/tracks-v{N}/video.m3u8 (N = 1 for the first video track, in index order), whose
 * segments are /{name}/tracks-v{N}/seg-{S}.ts, relative to it.
 */
export const variantUri = (n: number): string => `tracks-v${n}/video.m3u8`;

const VARIANT = /^(.+)\/tracks-v([1-9]\d{0,2})$/;

/** Splits a playback path's name part into the stream and the variant, when it names one. */
export function variantPath(name: string, resource: string): { name: string; variant: number } | undefined {
  // Only the media playlist and its segments exist per variant.
  if (resource !== 'video.m3u8' && !resource.startsWith('seg-')) return undefined;
  const match = VARIANT.exec(name);
  return match ? { name: match[1]!, variant: Number(match[2]) } : undefined;
}
