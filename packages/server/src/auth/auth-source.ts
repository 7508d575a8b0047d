import type { Config, Stream } from '@sluice/api';

export type Auth = NonNullable<Stream['auth']>;

/**
 * The auth settings that govern a stream: its own (config.streams), else those of the publishing
 * location it was published into (PREFIX/NAME, longest prefix), else those of the mirror that
 * shows it. A VOD file (PREFIX/PATH, vod/vod-handler.ts) plays under its VOD's auth: the longer
 * of a live and a VOD prefix starting the name wins (a live one on a tie).
 */
export function authFor(
  config: Config,
  name: string,
  mirrorOf?: (name: string) => { auth?: Auth } | undefined,
): Auth | undefined {
  const stream = config.streams?.[name];
  if (stream) return stream.auth;
  let best: string | undefined;
  for (const prefix of Object.keys(config.lives ?? {})) {
    if (name.startsWith(`${prefix}/`) && (!best || prefix.length > best.length)) best = prefix;
  }
  const vod = vodOf(config, name);
  if (vod && (!best || vod.prefix.length > best.length)) return vod.auth;
  if (best) return config.lives![best]!.auth;
  return mirrorOf?.(name)?.auth;
}

/** The VOD whose prefix (the longest) starts a file name PREFIX/PATH. */
function vodOf(config: Config, name: string): { prefix: string; auth?: Auth } | undefined {
  let found: { prefix: string; auth?: Auth } | undefined;
  for (const [key, vod] of Object.entries(config.vods ?? {})) {
    const prefix = vod.prefix ?? key;
    if (name.startsWith(`${prefix}/`) && (!found || prefix.length > found.prefix.length))
      found = { prefix, auth: vod.auth };
  }
  return found;
}
