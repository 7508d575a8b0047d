/** Backoff of one kind of key: free failures, then a lock doubling from baseMs up to maxMs. */
export interface BackoffRule {
  freeFailures: number;
  baseMs: number;
  maxMs: number;
  /** Failures older than this are forgotten. */
  forgetAfterMs: number;
}

/**
 * Per address the lock grows long (a single attacker is slowed to a guess every 15 min); per login
 * it stays short, since anyone can aim it at the admin login: it only slows a guesser spread over
 * many addresses, and never locks the admin out for more than half a minute.
 */
export const PER_ADDRESS: BackoffRule = {
  freeFailures: 5,
  baseMs: 1000,
  maxMs: 15 * 60_000,
  forgetAfterMs: 3600_000,
};
export const PER_LOGIN: BackoffRule = {
  freeFailures: 20,
  baseMs: 1000,
  maxMs: 30_000,
  forgetAfterMs: 15 * 60_000,
};
/** An address that logged in is trusted for that login for a day: the per-login lock skips it. */
const TRUST_MS = 24 * 3600_000;
/** Bounds the memory a spread attack can fill (one entry per address or login tried). */
const MAX_KEYS = 10_000;

interface Failures {
  count: number;
  lastAt: number;
  lockedUntil: number;
}

class BackoffTable {
  private readonly entries = new Map<string, Failures>();

  constructor(
    private readonly rule: BackoffRule,
    private readonly now: () => number,
  ) {}

  waitMs(key: string): number {
    const entry = this.current(key);
    return entry ? Math.max(0, entry.lockedUntil - this.now()) : 0;
  }

  /** Counts a failure; returns the lock it starts (0 while failures are still free). */
  fail(key: string): { count: number; lockMs: number } {
    const now = this.now();
    const entry = this.current(key) ?? { count: 0, lastAt: now, lockedUntil: 0 };
    entry.count++;
    entry.lastAt = now;
    const over = entry.count - this.rule.freeFailures;
    const lockMs = over < 0 ? 0 : Math.min(this.rule.maxMs, this.rule.baseMs * 2 ** Math.min(over, 30));
    entry.lockedUntil = now + lockMs;
    // Re-inserted so the Map's order is least recently failed first: the cap drops the stalest.
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const stale of this.entries.keys()) {
      if (this.entries.size <= MAX_KEYS) break;
      this.entries.delete(stale);
    }
    return { count: entry.count, lockMs };
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  private current(key: string): Failures | undefined {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.lastAt > this.rule.forgetAfterMs && entry.lockedUntil < this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}

/**
 * Failed-login backoff (issue 13: thousands of guesses a second went unanswered). Keyed by client
 * address and by login name, for the login form, HTTP Basic on API calls and the websocket alike.
 */
export class LoginThrottle {
  private readonly byAddress: BackoffTable;
  private readonly byLogin: BackoffTable;
  private readonly trusted = new Map<string, number>();

  constructor(
    rules: { address?: BackoffRule; login?: BackoffRule } = {},
    private readonly now: () => number = Date.now,
  ) {
    this.byAddress = new BackoffTable(rules.address ?? PER_ADDRESS, now);
    this.byLogin = new BackoffTable(rules.login ?? PER_LOGIN, now);
  }

  /** How long this address must wait before its next try with `login` (0: it may try now). */
  waitMs(address: string, login: string): number {
    const loginWait = this.isTrusted(address, login) ? 0 : this.byLogin.waitMs(login);
    return Math.max(this.byAddress.waitMs(address), loginWait);
  }

  fail(address: string, login: string): { addressFailures: number; lockMs: number } {
    const byAddress = this.byAddress.fail(address);
    const byLogin = this.byLogin.fail(login);
    return { addressFailures: byAddress.count, lockMs: Math.max(byAddress.lockMs, byLogin.lockMs) };
  }

  succeed(address: string, login: string): void {
    this.byAddress.forget(address);
    const key = `${address}\0${login}`;
    this.trusted.delete(key);
    this.trusted.set(key, this.now() + TRUST_MS);
    for (const oldest of this.trusted.keys()) {
      if (this.trusted.size <= MAX_KEYS) break;
      this.trusted.delete(oldest);
    }
  }

  private isTrusted(address: string, login: string): boolean {
    const until = this.trusted.get(`${address}\0${login}`);
    return until !== undefined && until > this.now();
  }
}
