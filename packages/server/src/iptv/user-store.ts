import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** An IPTV subscriber (spec 002 §3); `max_sessions` null means no limit. */
export interface IptvUser {
  id: number;
  name: string;
  email: string;
  key: string;
  max_sessions: number | null;
}

/** What an edit may set; `key: null` makes a new key. */
export interface UserChanges {
  name?: string;
  email?: string;
  max_sessions?: number | null;
  key?: null;
}

/** A user's key: 16 random bytes as hex, the playlist key and every stream url's ?token=. */
export const newKey = (): string => randomBytes(16).toString('hex');

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    max_sessions INTEGER
  );`;

/** Characters LIKE treats specially, escaped so a filter matches them as typed. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The users of the IPTV plugin, in SQLite at plugins.iptv.database. better-sqlite3 is synchronous,
 * so each call is whole before the next starts: of two concurrent edits of one user the last applied
 * is kept, never a mix. `revision` grows with every change, so cached play decisions can be dropped.
 */
export class UserStore {
  private readonly db: Database.Database;
  private readonly byKey: Database.Statement<[string], IptvUser>;
  private readonly byId: Database.Statement<[number], IptvUser>;
  private changes = 0;

  /** Opens (creating the file and its folder if needed); throws when the path can't be used. */
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { timeout: 2000 });
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.exec(SCHEMA);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.byKey = this.db.prepare('SELECT * FROM users WHERE key = ?');
    this.byId = this.db.prepare('SELECT * FROM users WHERE id = ?');
  }

  get revision(): number {
    return this.changes;
  }

  userByKey(key: string): IptvUser | undefined {
    return this.byKey.get(key);
  }

  user(id: number): IptvUser | undefined {
    return this.byId.get(id);
  }

  /** A page of users by id; `q` matches a part of the name or email (case-insensitive), or the id. */
  list(from: number, count: number, q?: string): { users: IptvUser[]; total: number } {
    if (!q) {
      const users = this.db.prepare('SELECT * FROM users ORDER BY id LIMIT ? OFFSET ?').all(count, from);
      const { total } = this.db.prepare('SELECT count(*) AS total FROM users').get() as { total: number };
      return { users: users as IptvUser[], total };
    }
    const where = `WHERE name LIKE @p ESCAPE '\\' OR email LIKE @p ESCAPE '\\' OR id = @id`;
    const params = { p: likePattern(q), id: /^\d{1,15}$/.test(q) ? Number(q) : -1 };
    const users = this.db
      .prepare(`SELECT * FROM users ${where} ORDER BY id LIMIT @count OFFSET @from`)
      .all({ ...params, count, from }) as IptvUser[];
    const { total } = this.db.prepare(`SELECT count(*) AS total FROM users ${where}`).get(params) as {
      total: number;
    };
    return { users, total };
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  }

  create(user: { name: string; email: string; max_sessions: number | null }): IptvUser {
    const key = newKey();
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO users (name, email, key, max_sessions) VALUES (?, ?, ?, ?)')
      .run(user.name, user.email, key, user.max_sessions);
    this.changes++;
    return this.user(Number(lastInsertRowid))!;
  }

  /** Many users in one transaction (the bench's 100,000). */
  createMany(users: readonly { name: string; email: string; max_sessions: number | null }[]): void {
    const insert = this.db.prepare('INSERT INTO users (name, email, key, max_sessions) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const u of users) insert.run(u.name, u.email, newKey(), u.max_sessions);
    })();
    this.changes++;
  }

  /** Undefined when no user has that id. */
  update(id: number, changes: UserChanges): IptvUser | undefined {
    const current = this.user(id);
    if (!current) return undefined;
    const next: IptvUser = {
      ...current,
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.max_sessions !== undefined ? { max_sessions: changes.max_sessions } : {}),
      ...(changes.key === null ? { key: newKey() } : {}),
    };
    this.db
      .prepare('UPDATE users SET name = ?, email = ?, key = ?, max_sessions = ? WHERE id = ?')
      .run(next.name, next.email, next.key, next.max_sessions, id);
    this.changes++;
    return next;
  }

  remove(id: number): boolean {
    const { changes } = this.db.prepare('DELETE FROM users WHERE id = ?').run(id);
    this.changes++;
    return changes > 0;
  }

  close(): void {
    this.db.close();
  }
}
