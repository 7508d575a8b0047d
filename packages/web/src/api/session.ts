import { type Credentials, clearCredentials, saveCredentials } from './credentials.js';
import { ApiError } from './http-client.js';

export const INVALID_LOGIN = 'Invalid login/password';

/**
 * POST /admin/login with form-encoded credentials (spec 000 §7). On success the credentials are
 * stored for every later call; 403 resolves to 'invalid'; anything else throws.
 */
export async function logIn(credentials: Credentials): Promise<'ok' | 'invalid'> {
  const response = await fetch('/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(credentials).toString(),
    credentials: 'same-origin',
  });
  if (response.status === 403) return 'invalid';
  if (!response.ok)
    throw new ApiError(response.status, `${response.status} ${response.statusText}`, undefined);
  saveCredentials(credentials);
  return 'ok';
}

/** Clears the stored credentials and the session cookie (POST /admin/logout clears it server-side). */
export async function logOut(): Promise<void> {
  clearCredentials();
  await fetch('/admin/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
}
