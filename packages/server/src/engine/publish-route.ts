import type { Config } from '@sluice/api';

export type PublishTarget =
  { kind: 'stream'; name: string } | { kind: 'location'; prefix: string; name: string } | { refused: string };

/**
 * Which stream a publish to rtmp://HOST/APP/NAME goes to (spec 001 §9 publish URLs): a configured
 * stream named NAME under the default prefix `static`, else the stream APP/NAME; failing that, a
 * new stream APP/NAME in the publishing location whose prefix starts the path (longest first).
 */
export function routePublish(config: Config, app: string, name: string): PublishTarget {
  const path = `${app}/${name}`;
  const streamName = app === 'static' ? name : path;
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
  if (prefix) return { kind: 'location', prefix, name: path };
  return { refused: `no stream ${streamName} accepts publishing, and no publishing location holds ${path}` };
}
