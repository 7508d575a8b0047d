import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Config } from '@sluice/api';
import type { Decision } from '../auth/play-auth.js';
import { allow, deny } from '../auth/play-request.js';
import type { Logger } from '../support/log.js';
import { UserStore } from './user-store.js';

/** The spec's messages (spec 002 §8). */
export const NOT_CONFIGURED = 'IPTV is not configured';
export const UNREACHABLE = 'unable to access database on path';
/** The database the console suggests (spec 002 §9: a sqlite file in the server's own folder). */
export const DEFAULT_DATABASE = join('iptv', 'iptv.db');

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** plugins.iptv.database as an absolute path (a relative one is taken from the config's folder). */
export function databasePath(dataDir: string, database: string): string {
  return isAbsolute(database) ? database : resolve(dataDir, database);
}

/**
 * Opens `database` once to see that it can be used (creating it): the check a config edit setting
 * plugins.iptv.database goes through, so a path that can't be opened changes nothing. Returns the
 * spec's message with the path and reason, or undefined when it opened.
 */
export function unreachableDatabase(dataDir: string, database: string): string | undefined {
  const path = databasePath(dataDir, database);
  try {
    new UserStore(path).close();
    return undefined;
  } catch (error) {
    return `${UNREACHABLE} ${path}: ${reasonOf(error)}`;
  }
}

/**
 * The IPTV plugin's state: the user store of plugins.iptv.database, opened when the config names
 * one and reopened when it changes; a file that can't be opened leaves the error to show.
 */
export class IptvPlugin {
  private store: UserStore | undefined;
  private configured: string | undefined;
  private error: string | undefined;
  /** Grows when the store is replaced, so revisions of two stores never collide. */
  private opened = 0;
  private readonly lostListeners = new Set<() => void>();

  constructor(
    private readonly dataDir: string,
    private readonly log: Logger,
  ) {}

  apply(config: Config): void {
    const database = config.plugins?.iptv?.database?.trim() || undefined;
    if (database === this.configured) return;
    this.store?.close();
    this.store = undefined;
    this.error = undefined;
    this.configured = database;
    this.opened++;
    if (!database) return;
    const path = databasePath(this.dataDir, database);
    try {
      this.store = new UserStore(path);
      this.log.notice(`iptv: users in ${path}`);
    } catch (error) {
      this.error = `${UNREACHABLE} ${path}: ${reasonOf(error)}`;
      this.log.error(`iptv: ${this.error}`);
    }
  }

  /** The store, or what to answer instead (409 not configured, 503 unreachable). */
  users(): UserStore | { status: 409 | 503; error: string } {
    if (this.store) return this.store;
    if (!this.configured) return { status: 409, error: NOT_CONFIGURED };
    return { status: 503, error: this.error ?? UNREACHABLE };
  }

  status() {
    const store = this.store;
    return {
      configured: this.configured !== undefined,
      database: this.configured ?? null,
      path: this.configured ? databasePath(this.dataDir, this.configured) : null,
      default_database: databasePath(this.dataDir, DEFAULT_DATABASE),
      error: this.configured && !store ? (this.error ?? UNREACHABLE) : null,
      user_count: store ? store.count() : 0,
    };
  }

  /** Changes whenever a user is added, edited or removed (cached decisions are keyed by it). */
  get revision(): string {
    return `${this.opened}.${this.store?.revision ?? 0}`;
  }

  /** The iptv auth: `token` must be an existing user's key. */
  check(token: string | undefined): Decision {
    if (!this.store) return deny(this.configured ? (this.error ?? UNREACHABLE) : NOT_CONFIGURED);
    if (!token) return deny('no IPTV token (?token=)');
    let user;
    try {
      user = this.store.userByKey(token);
    } catch (error) {
      return { allow: false, reason: `IPTV store: ${reasonOf(error)}`, ttlMs: 5000, failed: true };
    }
    if (!user) return deny('unknown IPTV token');
    const userId = String(user.id);
    return { ...allow({ userId }), perUser: { userId, maxSessions: user.max_sessions || null } };
  }

  /**
   * Told when a key stops opening anything (a user removed, a key regenerated): open sessions are
   * then checked again at once (auth/access-services.ts) instead of at the next 10 s pass.
   */
  onAccessLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  accessLost(): void {
    for (const listener of this.lostListeners) listener();
  }

  close(): void {
    this.store?.close();
    this.store = undefined;
  }
}

/**
 * The config store's check of an edit (config/store.ts): a new plugins.iptv.database must open, or
 * the edit is refused with the spec's message and nothing changes.
 */
export function refuseUnreachableIptv(
  next: Config,
  previous: Config,
  configPath: string,
): string | undefined {
  const database = next.plugins?.iptv?.database?.trim();
  if (!database || database === previous.plugins?.iptv?.database?.trim()) return undefined;
  return unreachableDatabase(dirname(configPath), database);
}
