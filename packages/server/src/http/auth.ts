import { timingSafeEqual, createHash } from 'node:crypto';
import type { Config } from '@sluice/api';

export type Access = 'edit' | 'view';

export interface Credentials {
  login: string;
  password: string;
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Decodes `Basic base64(login:password)`; undefined for anything else. */
export function parseBasic(header: string | undefined): Credentials | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=._-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Who may do what, from the config's edit_auth (everything) and view_auth (reading only).
 * With no edit_auth at all nobody gets in: the server never runs open.
 */
export function accessFor(config: Config, creds: Credentials | undefined): Access | undefined {
  if (!creds) return undefined;
  const edit = config.edit_auth;
  if (edit && edit.login === creds.login && sameSecret(edit.password, creds.password)) return 'edit';
  const view = config.view_auth;
  if (view && view.login === creds.login && sameSecret(view.password, creds.password)) return 'view';
  return undefined;
}

export const SESSION_COOKIE = 'sluice_session';

export { SessionRegistry } from './sessions.js';

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // A malformed cookie value is ignored rather than failing the request.
    }
  }
  return out;
}
