import type { Mirror, Stream } from '@sluice/api';

/**
 * The pure rules of origin mirrors (spec 000 §3 Mirror, §4 Mirror modes).
 *
 * A mirror url is the origin's HTTP address, optionally with a path prefix it is served under:
 * `http://origin:8080`, `https://origin.example.net/edge`, or just `origin:8080` (http assumed;
 * no port means 80, or 443 for https). Its stream list is asked at `<url>/flussonic/api/cluster/streams`
 * and each stream is pulled as MPEG-TS from `<url>/<name>/mpegts`.
 */
export const CLUSTER_STREAMS_PATH = '/flussonic/api/cluster/streams';

export class MirrorUrlError extends Error {}

/** The origin's base URL (scheme, host, port, path prefix), or an error for what is not one. */
export function mirrorBase(url: string): URL {
  const raw = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
    throw new MirrorUrlError(`unsupported url ${raw}: a mirror url is http://HOST[:PORT][/PATH]`);
  let base: URL;
  try {
    base = new URL(scheme ? raw : `http://${raw}`);
  } catch {
    throw new MirrorUrlError(`not a url: ${raw}`);
  }
  if (!base.hostname) throw new MirrorUrlError(`not a url: ${raw}`);
  base.search = '';
  base.hash = '';
  return base;
}

const withPath = (base: URL, path: string): string =>
  `${base.origin}${base.pathname.replace(/\/+$/, '')}${path}`;

/** Where the origin at `url` lists its streams. */
export function listUrl(url: string): string {
  return withPath(mirrorBase(url), CLUSTER_STREAMS_PATH);
}

/** The source that pulls stream `name` from the origin at `url`: MPEG-TS over HTTP (the engine's tshttp). */
export function pullUrl(url: string, name: string): string {
  const base = mirrorBase(url);
  const path = `/${name.split('/').map(encodeURIComponent).join('/')}/mpegts`;
  return withPath(base, path).replace(/^http/, 'tshttp');
}

/** Whether a mirrored stream runs all the time: every one when there is no `only`; else those named in it. */
export function isStatic(mirror: Mirror, name: string): boolean {
  return mirror.only === undefined || mirror.only.includes(name);
}

/** The streams a mirror shows and pulls: those its origins list, less `except`, less names taken locally or by an earlier mirror. */
export function mirroredNames(
  mirror: Mirror,
  listed: Iterable<string>,
  taken: (name: string) => boolean,
): string[] {
  const except = new Set(mirror.except ?? []);
  const out: string[] = [];
  for (const name of listed) if (!except.has(name) && !taken(name)) out.push(name);
  return out.sort();
}

/**
 * The stream config a mirrored stream runs as: pulled from every url of its mirror in order
 * (failover), proving the mirror's cluster key (or the global one).
 */
export function mirroredStream(mirror: Mirror, name: string, globalClusterKey: string | undefined): Stream {
  const urls: { url: string }[] = [];
  for (const url of mirror.urls ?? []) {
    try {
      urls.push({ url: pullUrl(url, name) });
    } catch {
      // A url that is no origin address is reported by the poller; it has no stream to pull.
    }
  }
  const stream: Stream = { name, urls, static: isStatic(mirror, name) };
  const key = mirror.cluster_key || globalClusterKey;
  if (key) stream.cluster_key = key;
  if (mirror.thumbnails) stream.thumbnails = mirror.thumbnails;
  if (mirror.auth) stream.auth = mirror.auth;
  if (mirror.clients_timeout !== undefined) stream.clients_timeout = mirror.clients_timeout;
  return stream;
}
