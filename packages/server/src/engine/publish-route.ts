import { type Config, mediaName } from '@sluice/api';

export type PublishTarget =
  { kind: 'stream'; name: string } | { kind: 'location'; prefix: string; name: string } | { refused: string };

/**
 * Which stream a publish to rtmp://HOST/APP/NAME goes to (spec 001 §9 publish URLs): a configured
 * stream named NAME under the default prefix `static` (or the stream's own `prefix`), else the stream
 * APP/NAME; failing that, a
 * new stream APP/NAME in the publishing location whose prefix starts the path (longest first).
 * The path must be a valid stream name (the config's rules: no `..`, no whitespace or `<`) and
 * not one of the location's `except` names, so a publisher can't create what the config couldn't.
 */
export function routePublish(config: Config, app: string, name: string): PublishTarget {
  const path = `${app}/${name}`;
  const valid = mediaName.safeParse(path);
  if (!valid.success)
    // The rule before the name: a long name is cut in the log, the rule stays.
    return { refused: `not a valid stream name (${valid.error.issues[0]?.message}): ${path}` };
  // A stream with a `prefix` is published at PREFIX/NAME (spec 001 §9 publish URLs).
  const prefixed = config.streams?.[name]?.prefix === app && !name.includes('/');
  const streamName = app === 'static' || (prefixed && !config.streams?.[path]) ? name : path;
  const stream = config.streams?.[streamName];
  if (stream) {
    const publishes =
      stream.publish_enabled || (stream.urls ?? []).some((u) => u.url.startsWith('publish://'));
    if (!publishes) return { refused: `stream ${streamName} does not accept publishing` };
    if (stream.disabled) return { refused: `stream ${streamName} is disabled` };
    return { kind: 'stream', name: streamName };
  }
  const prefixes = Object.keys(config.lives ?? {}).sort((a, b) => b.length - a.length);
  const prefix = prefixes.find((p) => path.startsWith(`${p}/`) && path.length > p.length + 1);
  if (!prefix)
    return {
      refused: `no stream ${streamName} accepts publishing, and no publishing location holds ${path}`,
    };
  // `except` may name the stream in full (PREFIX/NAME) or within its location (NAME).
  const except = config.lives?.[prefix]?.except ?? [];
  if (except.includes(path) || except.includes(path.slice(prefix.length + 1)))
    return { refused: `location ${prefix} does not accept publishing ${path} (except)` };
  return { kind: 'location', prefix, name: path };
}
