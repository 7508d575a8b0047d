import { archiveEndS, type ArchiveRange } from './timeline-geometry.js';

/**
 * The archive playlist a timeline click plays (the Flussonic URL family of issue 15):
 * /{name}/archive-{from}-{duration}.m3u8, from the clicked moment to the archive's end. Whole
 * seconds, rounded inward so the range stays inside the archive.
 */
export function archivePlaylistUrl(name: string, fromS: number, ranges: readonly ArchiveRange[]): string {
  const from = Math.ceil(fromS);
  const duration = Math.max(1, Math.floor(archiveEndS(ranges) - from));
  const path = name.split('/').map(encodeURIComponent).join('/');
  return `/${path}/archive-${from}-${duration}.m3u8`;
}
