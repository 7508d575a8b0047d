import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openSqliteFile } from '../support/sqlite-file.js';

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

/** What the users filter searches in: name and email, lower-cased. */
const searchText = (user: { name: string; email: string }) => `${user.name}\n${user.email}`.toLowerCase();

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
  /**
   * id → search text, in id order (ids only grow): the filter scans this in memory, ~10× faster than
   * LIKE over the table at 100,000 users (bench/iptv.mjs). This server is the file's only writer.
   */
  private readonly search = new Map<number, string>();

  /** Opens (creating the file and its folder if needed); throws when the path can't be used. */
  constructor(readonly path: string) {
    // Subscribers are the operator's data: FULL sync, a committed change survives a power cut.
    this.db = openSqliteFile(path, SCHEMA, { busyTimeoutMs: 2000, synchronous: 'FULL' });
    this.byKey = this.db.prepare('SELECT * FROM users WHERE key = ?');
    this.byId = this.db.prepare('SELECT * FROM users WHERE id = ?');
    const rows = this.db.prepare('SELECT id, name, email FROM users ORDER BY id').all() as IptvUser[];
    for (const row of rows) this.search.set(row.id, searchText(row));
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
      return { users: users as IptvUser[], total: this.search.size };
    }
    const needle = q.toLowerCase();
    const id = /^\d{1,15}$/.test(q) ? Number(q) : -1;
    const page: number[] = [];
    let total = 0;
    for (const [userId, text] of this.search) {
      if (userId !== id && !text.includes(needle)) continue;
      if (total >= from && page.length < count) page.push(userId);
      total++;
    }
    if (page.length === 0) return { users: [], total };
    const users = this.db
      .prepare(`SELECT * FROM users WHERE id IN (${page.map(() => '?').join(',')}) ORDER BY id`)
      .all(...page) as IptvUser[];
    return { users, total };
  }

  count(): number {
    return this.search.size;
  }

  create(user: { name: string; email: string; max_sessions: number | null }): IptvUser {
    const key = newKey();
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO users (name, email, key, max_sessions) VALUES (?, ?, ?, ?)')
      .run(user.name, user.email, key, user.max_sessions);
    this.changes++;
    const created = this.user(Number(lastInsertRowid))!;
    this.search.set(created.id, searchText(created));
    return created;
  }

  /** Many users in one transaction (the bench's 100,000). */
  createMany(users: readonly { name: string; email: string; max_sessions: number | null }[]): void {
    const insert = this.db.prepare('INSERT INTO users (name, email, key, max_sessions) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const u of users)
        this.search.set(
          Number(insert.run(u.name, u.email, newKey(), u.max_sessions).lastInsertRowid),
          searchText(u),
        );
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
    this.search.set(id, searchText(next));
    this.changes++;
    return next;
  }

  remove(id: number): boolean {
    const { changes } = this.db.prepare('DELETE FROM users WHERE id = ?').run(id);
    this.search.delete(id);
    this.changes++;
    return changes > 0;
  }

  close(): void {
    this.db.close();
  }
}
