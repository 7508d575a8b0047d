import type { Config, Stream } from '@sluice/api';

export type Auth = NonNullable<Stream['auth']>;

/**
 * The auth settings that govern a stream: its own (config.streams), else those of the publishing
 * location it was published into (PREFIX/NAME, longest prefix), else those of the mirror that
 * shows it. VODs have no runtime here yet: when they do, their lookup goes here.
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
  if (best) return config.lives![best]!.auth;
  return mirrorOf?.(name)?.auth;
}
