import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Config } from '@sluice/api';
import type { Access, Credentials } from './auth.js';

interface Session {
  access: Access;
  login: string;
  /** A salted hash of the login and password the session was made with: a new password ends it. */
  credentialsTag: string;
  expiresAt: number;
}

interface SessionFile {
  salt: string;
  /** Keyed by the SHA-256 of the cookie value: the file alone opens no session. */
  sessions: Record<string, Session>;
}

/** A stored expiry is rewritten once it lags this much behind the sliding one (not on every call). */
const PERSIST_LAG_MS = 10 * 60_000;
const MAX_SESSIONS = 1000;

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Console login sessions: a random 256-bit id in an HttpOnly cookie. A session is bound to the
 * login and password it was made with, and dies when either changes in the config (a view session
 * dies with a view_auth change too). With a file, sessions outlive a server restart, so a console
 * reconnects after one without anyone logging in again.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private salt = randomBytes(16).toString('hex');

  constructor(private readonly options: { file?: string; ttlMs?: number; now?: () => number } = {}) {
    this.load();
  }

  private get ttlMs() {
    return this.options.ttlMs ?? 12 * 3600_000;
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }

  create(credentials: Credentials, access: Access): string {
    const id = randomBytes(32).toString('base64url');
    this.prune();
    this.sessions.set(hashId(id), {
      login: credentials.login,
      access,
      credentialsTag: this.tag(credentials),
      expiresAt: this.now() + this.ttlMs,
    });
    this.save();
    return id;
  }

  /** The access of a live session whose credentials still match the config; slides its expiry. */
  lookup(id: string | undefined, config: Config): Access | undefined {
    if (!id) return undefined;
    const key = hashId(id);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    const owner = session.access === 'edit' ? config.edit_auth : config.view_auth;
    const now = this.now();
    if (session.expiresAt < now || !owner || !this.sameTag(this.tag(owner), session.credentialsTag)) {
      this.sessions.delete(key);
      this.save();
      return undefined;
    }
    const expiresAt = now + this.ttlMs;
    const lagged = expiresAt - session.expiresAt > PERSIST_LAG_MS;
    session.expiresAt = expiresAt;
    if (lagged) this.save();
    return session.access;
  }

  delete(id: string | undefined): void {
    if (id && this.sessions.delete(hashId(id))) this.save();
  }

  /** Drops every session, e.g. when the admin password changes. */
  clear(): void {
    this.sessions.clear();
    this.save();
  }

  private tag({ login, password }: Credentials): string {
    return createHash('sha256').update(`${this.salt}\0${login}\0${password}`).digest('hex');
  }

  private sameTag(a: string, b: string): boolean {
    return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  }

  /** Expired sessions go first; past the cap the oldest logins go too (Map keeps insertion order). */
  private prune(): void {
    const now = this.now();
    for (const [key, s] of this.sessions) if (s.expiresAt < now) this.sessions.delete(key);
    for (const key of this.sessions.keys()) {
      if (this.sessions.size < MAX_SESSIONS) break;
      this.sessions.delete(key);
    }
  }

  private load(): void {
    if (!this.options.file) return;
    try {
      const stored = JSON.parse(readFileSync(this.options.file, 'utf8')) as SessionFile;
      if (typeof stored.salt !== 'string' || typeof stored.sessions !== 'object') return;
      this.salt = stored.salt;
      for (const [key, session] of Object.entries(stored.sessions)) this.sessions.set(key, session);
    } catch {
      // No file yet, or an unreadable one: everyone logs in again, nothing else is lost.
    }
  }

  private save(): void {
    const file = this.options.file;
    if (!file) return;
    const data: SessionFile = { salt: this.salt, sessions: Object.fromEntries(this.sessions) };
    try {
      // Write then rename: a crash leaves the old file or the new one, never half of one.
      writeFileSync(`${file}.tmp`, JSON.stringify(data), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // A read-only disk keeps sessions in memory only: logging in still works until a restart.
    }
  }
}
