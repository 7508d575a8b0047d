import { loadLogin } from '../api/credentials.js';
import { isAuthFailure } from '../api/http-client.js';
import { useServerInfo } from '../api/server-info.js';

export type Startup =
  { phase: 'loading' } | { phase: 'login' } | { phase: 'error'; retry: () => void } | { phase: 'ready' };

/**
 * Where startup stands: with no stored login, the login form; otherwise the server info call
 * (authorised by the session cookie) decides — 401 or 403 shows the login form, any other failure
 * "Server error" with Retry.
 */
export function useStartup(): Startup {
  const hasCredentials = loadLogin() !== undefined;
  const info = useServerInfo(hasCredentials);
  if (!hasCredentials) return { phase: 'login' };
  if (info.isSuccess) return { phase: 'ready' };
  if (info.isError) {
    if (isAuthFailure(info.error)) return { phase: 'login' };
    return { phase: 'error', retry: () => void info.refetch() };
  }
  return { phase: 'loading' };
}
