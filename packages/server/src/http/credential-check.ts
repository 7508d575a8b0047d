import type { Config } from '@sluice/api';
import { type Access, accessFor, type Credentials } from './auth.js';
import type { LoginFailureLog } from './login-failure-log.js';
import type { LoginThrottle } from './login-throttle.js';

export type CheckResult =
  { access: Access } | { refused: 'wrong' } | { refused: 'wait'; retryAfterS: number };

export type CredentialCheck = (address: string, credentials: Credentials, via: string) => CheckResult;

/** IPv4 clients on a dual-stack socket show as ::ffff:a.b.c.d; one address, one key. */
export const clientAddress = (ip: string) => ip.replace(/^::ffff:/, '');

/**
 * Every password check goes through here (login form, Basic auth, websocket `?auth=`): a locked
 * address or login is refused before the password is compared, a failure is counted and logged.
 */
export function createCredentialCheck(
  config: () => Config,
  throttle: LoginThrottle,
  failures: LoginFailureLog,
): CredentialCheck {
  return (ip, credentials, via) => {
    const address = clientAddress(ip);
    const waitMs = throttle.waitMs(address, credentials.login);
    if (waitMs > 0) return { refused: 'wait', retryAfterS: Math.ceil(waitMs / 1000) };
    const access = accessFor(config(), credentials);
    if (access) {
      throttle.succeed(address, credentials.login);
      return { access };
    }
    const { addressFailures, lockMs } = throttle.fail(address, credentials.login);
    failures.note({ login: credentials.login, address, via, addressFailures, lockMs });
    return { refused: 'wrong' };
  };
}

/** The 429 answer's message. */
export const tooManyFailures = (retryAfterS: number) =>
  `too many failed logins: try again in ${retryAfterS} s`;
