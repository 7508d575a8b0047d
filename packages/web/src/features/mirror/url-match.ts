import type { LiveMirror } from './live-mirror.js';

/**
 * Which mirror a mirrored stream comes from (spec 000 §2, 001 §2): the mirror one of whose urls has
 * the host and port of the stream's source url. A url without a port counts as port 80.
 */
export interface HostPort {
  host: string;
  port: number;
}

const DEFAULT_PORT = 80;
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^:/?#]+)(?::(\d*))?/i;

/** The host (lower-cased) and port of a url like `http://user@origin:8080/path`; undefined when it has none. */
export function hostPortOf(url: string): HostPort | undefined {
  const match = AUTHORITY.exec(url.trim());
  if (!match?.[1]) return undefined;
  const port = match[2] ? Number.parseInt(match[2], 10) : DEFAULT_PORT;
  return { host: match[1].toLowerCase(), port };
}

export function sameServer(a: string, b: string): boolean {
  const x = hostPortOf(a);
  const y = hostPortOf(b);
  return x !== undefined && y !== undefined && x.host === y.host && x.port === y.port;
}

/**
 * The url a mirrored stream comes from: its active source url while it runs, else the configured
 * url of the origin server that listed it.
 */
export function streamSourceUrl(mirror: LiveMirror, name: string): string | undefined {
  const active = mirror.streams?.[name]?.stats.url;
  if (active) return active;
  return mirror.stats?.servers.find((s) => s.stream_names.includes(name))?.name;
}

/** The position of the mirror a stream was mirrored from, or undefined when no mirror's urls match. */
export function findOriginMirror(
  name: string,
  sources: Readonly<Record<string, LiveMirror | undefined>> | undefined,
): string | undefined {
  for (const [position, mirror] of Object.entries(sources ?? {})) {
    if (!mirror?.streams || !Object.hasOwn(mirror.streams, name)) continue;
    const source = streamSourceUrl(mirror, name);
    if (source && (mirror.urls ?? []).some((url) => sameServer(url, source))) return position;
  }
  return undefined;
}
