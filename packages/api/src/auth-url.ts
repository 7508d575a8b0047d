/**
 * What an item's `auth.url` means (spec 001 §4 "Auth type", §9 Auth): the console's Auth tab writes
 * these shapes and the server's play authorization reads them, so both take them from here.
 *
 * - none: no url.
 * - custom: an HTTP backend url typed by the operator, or `auth://NAME` for a named auth backend.
 * - stalker: `{host}/stalker_portal/server/api/chk_flussonic_tmp_link.php`.
 * - securetoken: `securetoken://KEY`.
 * - iptv: the server's own IPTV plugin, `http://127.0.0.1:{port}/tv/auth`.
 * - vsaas (Watcher): `vsaas://`, the Watcher plugin's own check.
 */
export const AUTH_TYPES = ['none', 'custom', 'stalker', 'securetoken', 'iptv', 'vsaas'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const STALKER_AUTH_PATH = '/stalker_portal/server/api/chk_flussonic_tmp_link.php';
export const SECURETOKEN_PREFIX = 'securetoken://';
export const AUTH_BACKEND_PREFIX = 'auth://';
export const IPTV_AUTH_PATH = '/tv/auth';
export const VSAAS_AUTH_URL = 'vsaas://';
/** The local address the server's own IPTV auth endpoint is called on. */
export const LOCAL_AUTH_HOST = '127.0.0.1';

export function authTypeOf(url: string | null | undefined): AuthType {
  if (url === null || url === undefined || url === '') return 'none';
  if (url.startsWith(SECURETOKEN_PREFIX)) return 'securetoken';
  if (url.endsWith(STALKER_AUTH_PATH)) return 'stalker';
  if (url.endsWith(IPTV_AUTH_PATH)) return 'iptv';
  if (url.startsWith(VSAAS_AUTH_URL)) return 'vsaas';
  return 'custom';
}

/** The named auth backend an `auth://NAME` url points at; undefined for any other url. */
export function authBackendName(url: string | null | undefined): string | undefined {
  return url?.startsWith(AUTH_BACKEND_PREFIX)
    ? decodeURIComponent(url.slice(AUTH_BACKEND_PREFIX.length))
    : undefined;
}

/** The stalker url of a portal host (`http://portal.example` or a bare host name). */
export function stalkerAuthUrl(host: string): string {
  const trimmed = host.trim().replace(/\/+$/, '');
  const withScheme = /^https?:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`;
  return `${withScheme}${STALKER_AUTH_PATH}`;
}

/** The portal host a stalker url was made from. */
export const stalkerHost = (url: string): string => url.slice(0, url.length - STALKER_AUTH_PATH.length);

export const iptvAuthUrl = (port: number): string => `http://${LOCAL_AUTH_HOST}:${port}${IPTV_AUTH_PATH}`;
