import type { Logger } from '../support/log.js';

/** At most this many failure lines per window; the rest are counted and reported with the next one. */
const LINES_PER_WINDOW = 20;
const WINDOW_MS = 60_000;

export interface LoginFailure {
  login: string;
  address: string;
  /** 'login form', 'basic auth' or 'websocket'. */
  via: string;
  addressFailures: number;
  lockMs: number;
}

/** A login as typed, made safe for one log line: quoted, control characters escaped, cut short. */
export const sanitiseLogin = (login: string) =>
  JSON.stringify(login.length > 64 ? `${login.slice(0, 64)}…` : login);

/**
 * Logs failed logins for the operator (issue 13: a guessing run left no trace), rate-limited so a
 * guessing run can't flood the log in turn.
 */
export class LoginFailureLog {
  private windowStart = 0;
  private lines = 0;
  private suppressed = 0;

  constructor(
    private readonly log: Pick<Logger, 'notice'>,
    private readonly now: () => number = Date.now,
  ) {}

  note(failure: LoginFailure): void {
    const now = this.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.lines = 0;
    }
    if (this.lines >= LINES_PER_WINDOW) {
      this.suppressed++;
      return;
    }
    this.lines++;
    const lock = failure.lockMs > 0 ? `; further tries wait ${Math.ceil(failure.lockMs / 1000)} s` : '';
    const skipped = this.suppressed > 0 ? ` (${this.suppressed} earlier failures not logged)` : '';
    this.suppressed = 0;
    this.log.notice(
      `login failed for ${sanitiseLogin(failure.login)} from ${failure.address} via ${failure.via}` +
        ` (${failure.addressFailures} failures from this address${lock})${skipped}`,
    );
  }
}
