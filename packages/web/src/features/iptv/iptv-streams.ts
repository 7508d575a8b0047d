import { IPTV_AUTH_PATH, iptvAuthUrl, LOCAL_AUTH_HOST } from '@sluice/api';
import type { Delta } from '../../api/edits.js';

/** What the IPTV page reads of a stream: its IPTV marker, its auth url, its list place. */
export interface IptvStream {
  meta?: { iptv?: boolean | undefined } | undefined;
  auth?: { url?: string | undefined } | undefined;
  position?: number | undefined;
  title?: string | undefined;
}

/**
 * The auth url of the {address} kind (spec 001 §4, spec 002 §3): the server's own IPTV check on
 * its local address, `http://127.0.0.1:{port}/tv/auth`.
 */
export const isLocalIptvUrl = (url: string): boolean =>
  url.startsWith(`http://${LOCAL_AUTH_HOST}:`) && url.endsWith(IPTV_AUTH_PATH);

export const isIptvEnabled = (stream: IptvStream | undefined): boolean => stream?.meta?.iptv === true;

/**
 * Spec 002 §4: enabling a stream sets meta.iptv to true and adds an auth url of the {address} kind
 * if the stream has no auth url; one it has is left as it is.
 */
export function enableDelta(name: string, stream: IptvStream, httpPort: number): Delta {
  const hasUrl = (stream.auth?.url ?? '') !== '';
  return {
    streams: {
      [name]: { meta: { iptv: true }, ...(hasUrl ? {} : { auth: { url: iptvAuthUrl(httpPort) } }) },
    },
  };
}

/**
 * Spec 002 §4: disabling clears the marker and removes the auth when its url is of the {address}
 * kind or is not a /tv/auth path (another server's /tv/auth check stays). The auth goes as the
 * Auth tab's "none" takes it: url and extra deleted, the stream's other limits kept.
 */
export function disableDelta(name: string, stream: IptvStream): Delta {
  const url = stream.auth?.url ?? '';
  const removeAuth = url !== '' && (isLocalIptvUrl(url) || !url.endsWith(IPTV_AUTH_PATH));
  return {
    streams: {
      [name]: { meta: { iptv: null }, ...(removeAuth ? { auth: { url: null, extra: null } } : {}) },
    },
  };
}

/** The streams list of the page: names in list order that match the filter, Enabled and Disabled apart. */
export function splitStreams(
  streams: Record<string, IptvStream>,
  filter: string,
): { enabled: string[]; disabled: string[] } {
  const needle = filter.trim().toLowerCase();
  const names = Object.keys(streams)
    .filter((name) => {
      if (needle === '') return true;
      const title = streams[name]?.title ?? '';
      return name.toLowerCase().includes(needle) || title.toLowerCase().includes(needle);
    })
    .sort((a, b) => (streams[a]?.position ?? 0) - (streams[b]?.position ?? 0) || a.localeCompare(b));
  return {
    enabled: names.filter((name) => isIptvEnabled(streams[name])),
    disabled: names.filter((name) => !isIptvEnabled(streams[name])),
  };
}
