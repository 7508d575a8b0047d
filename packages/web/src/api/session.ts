import { type Credentials, clearLogin, saveLogin } from './credentials.js';
import { ApiError, CONSOLE_HEADERS } from './http-client.js';

export const INVALID_LOGIN = 'Invalid login/password';

/**
 * POST /admin/login with form-encoded credentials (spec 000 §7). On success the server sets the
 * HttpOnly session cookie that authorises every later call, and the login name is stored as the
 * mark of it; the password is kept nowhere. 403 resolves to 'invalid'; anything else throws.
 */
/** Logins that succeeded in this page (live-connection.ts: a session replaced, not ended). */
let logins = 0;
export const loginCount = (): number => logins;

export async function logIn(credentials: Credentials): Promise<'ok' | 'invalid'> {
  const response = await fetch('/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login: credentials.login, password: credentials.password }).toString(),
    credentials: 'same-origin',
  });
  if (response.status === 403) return 'invalid';
  if (!response.ok)
    throw new ApiError(response.status, `${response.status} ${response.statusText}`, undefined);
  saveLogin(credentials.login);
  logins++;
  return 'ok';
}

/** Clears the stored login and the session cookie (POST /admin/logout ends the session server-side). */
export async function logOut(): Promise<void> {
  clearLogin();
  await fetch('/admin/logout', {
    method: 'POST',
    headers: CONSOLE_HEADERS,
    credentials: 'same-origin',
  }).catch(() => undefined);
}
