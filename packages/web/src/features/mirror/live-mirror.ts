import type { Mirror, MirroredStream, MirrorServerStats, MirrorStats } from '@sluice/api';

/** A mirror as the live view holds it: its config, the state of its servers and its mirrored streams. */
export type LiveMirror = Mirror & { stats?: MirrorStats; streams?: Record<string, MirroredStream> };

/** Mirrors are keyed by their position; "-1" is the create marker a save may leave pending for a moment. */
export const isMirrorKey = (key: string): boolean => /^\d+$/.test(key);

/**
 * The name an operator knows a mirror by: its title, else its urls. The delete confirmation
 * (spec 000 §5) and the page title use it.
 */
export function mirrorLabel(
  mirror: { title?: string | undefined; urls?: readonly string[] | undefined },
  position: string,
): string {
  if (mirror.title) return mirror.title;
  const urls = mirror.urls ?? [];
  return urls.length > 0 ? urls.join(', ') : `mirror ${position}`;
}

/**
 * Spec 000 §8: "online" when the last poll succeeded, otherwise "error: <reason>". The server
 * writes error null when healthy; a config delta carries null as "key removed", so a server state
 * without an error is healthy too.
 */
export function serverHealth(server: Pick<MirrorServerStats, 'error'> | { error?: undefined }): {
  online: boolean;
  text: string;
} {
  const error = server.error;
  return error === null || error === undefined
    ? { online: true, text: 'online' }
    : { online: false, text: `error: ${error}` };
}

/** The state of each configured url, in config order; undefined while the url has not been polled yet. */
export function serversOf(
  urls: readonly string[],
  stats: MirrorStats | undefined,
): { url: string; server: MirrorServerStats | undefined }[] {
  return urls.map((url) => ({ url, server: stats?.servers.find((s) => s.name === url) }));
}
