import { type Config, type Location, mediaName, type SourceEntry } from '@sluice/api';

/**
 * A publishing location's `urls` (spec 000 §3 Location): where its streams are pulled from when a
 * player asks for PREFIX/NAME and no publisher feeds it. `{NAME}` in a url stands for NAME (the
 * path after the prefix): `live cams { url rtsp://nvr.local/{NAME}; }` plays `cams/door` from
 * rtsp://nvr.local/door. The stream runs on demand: it goes clients_timeout after its last client.
 */
export const NAME_PLACEHOLDER = '{NAME}';

/** At most this many streams pulled for players at once, over all locations: a player naming
 * new paths can't start an ffmpeg per name without bound. */
export const MAX_PULLED_STREAMS = 64;

/** The urls of a location that pull (a `publish://` entry only says publishing is accepted). */
export function pullUrls(location: Location): SourceEntry[] {
  return ((location.urls ?? []) as SourceEntry[]).filter((u) => !u.url.startsWith('publish://'));
}

/** The location whose urls play `name` (longest prefix; a valid name, not in its except), if any. */
export function pullLocation(
  config: Config,
  name: string,
): { prefix: string; location: Location } | undefined {
  if (!mediaName.safeParse(name).success) return undefined;
  let prefix: string | undefined;
  for (const p of Object.keys(config.lives ?? {}))
    if (name.startsWith(`${p}/`) && name.length > p.length + 1 && (!prefix || p.length > prefix.length))
      prefix = p;
  const location = prefix === undefined ? undefined : config.lives?.[prefix];
  if (prefix === undefined || !location || pullUrls(location).length === 0) return undefined;
  const except = location.except ?? [];
  if (except.includes(name) || except.includes(name.slice(prefix.length + 1))) return undefined;
  return { prefix, location };
}

/** The sources of PREFIX/NAME: the location's pull urls with {NAME} filled in. */
export function locationSources(location: Location, prefix: string, name: string): SourceEntry[] {
  const inner = name.slice(prefix.length + 1);
  return pullUrls(location).map((u) => ({ ...u, url: u.url.replaceAll(NAME_PLACEHOLDER, inner) }));
}
