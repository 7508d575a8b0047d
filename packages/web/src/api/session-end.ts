import { clearLogin, loadLogin } from './credentials.js';
import { isAuthFailure } from './http-client.js';
import { fetchServerInfo } from './server-info.js';

/**
 * Whether this browser still holds a working session, asked before the events socket reconnects:
 * no stored login (logged out here or in another tab) or a 401/403 from the server info call is a
 * no. Any other failure (server down) is a yes: the socket keeps retrying until the server is back.
 */
export async function stillLoggedIn(): Promise<boolean> {
  if (loadLogin() === undefined) return false;
  try {
    await fetchServerInfo();
    return true;
  } catch (error) {
    return !isAuthFailure(error);
  }
}

/**
 * The session ended under a running console: nothing of the config stays on screen. The reload
 * starts over at the login form, on the page the operator was on, to continue there after logging in.
 */
export function showLoginAfterSessionEnd(): void {
  clearLogin();
  window.location.reload();
}

/**
 * A page the browser restores from its back/forward cache after a logout would show the console as
 * it was: reload it instead, which lands on the login form (spec 000 §4: after logout nothing shows).
 */
export function reloadRestoredPageWithoutLogin(): () => void {
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && loadLogin() === undefined) window.location.reload();
  };
  window.addEventListener('pageshow', onPageShow);
  return () => window.removeEventListener('pageshow', onPageShow);
}
