import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';

const REQUESTS = 2000;
/** Requests in flight at once: a fast client, well within the server's connection handling. */
const PARALLEL = 50;
const logDir = (server: RunningServer) => join(server.dir, 'session_log');
const logBytes = (server: RunningServer) =>
  ['sessions.sqlite3', 'sessions.sqlite3-wal'].reduce((sum, file) => {
    const path = join(logDir(server), file);
    return sum + (existsSync(path) ? statSync(path).size : 0);
  }, 0);

/**
 * An anonymous client cycling 4 KB tokens and user agents: each request would be a new session
 * and a row in the session log. Bounded by max_sessions_per_ip (429 past it) and by the lengths
 * the log keeps of each field.
 */
describe('security: a session flood from one address', () => {
  let server: RunningServer;
  const statuses = new Map<number, number>();
  let refusal = '';

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream cam {\n  url test://?size=160x90&fps=5&bitrate=100;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'cam')).alive, 30_000);
    const long = (i: number, fill: string) => `${i}-`.padEnd(4096, fill);
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const i = next++;
        const response = await fetch(`${server.url}/cam/index.m3u8?token=${long(i, 't')}`, {
          headers: { 'user-agent': long(i, 'u') },
        });
        const body = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 429) refusal = body;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    // Stopping the server ends the open sessions: each is written to the log.
    await server.stop();
  }, 180_000);
  afterAll(async () => server?.cleanup());

  it('gives sessions to the first 100 (max_sessions_per_ip) and 429 to the rest', () => {
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect(statuses.get(200)).toBeLessThanOrEqual(200);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(REQUESTS - 200);
    expect(refusal).toMatch(
      /^127\.0\.0\.1 (has 100 sessions open already|started 100 sessions in the last minute)/,
    );
  });

  it('keeps the session log small: few rows, each field cut to its length', () => {
    const db = new Database(join(logDir(server), 'sessions.sqlite3'), { readonly: true });
    const row = db
      .prepare(
        'SELECT COUNT(*) AS n, MAX(LENGTH(token)) AS token, MAX(LENGTH(user_agent)) AS ua FROM sessions',
      )
      .get() as { n: number; token: number; ua: number };
    db.close();
    const bytes = logBytes(server);
    expect(bytes, `${row.n} sessions in ${bytes} bytes`).toBeLessThan(1024 * 1024);
    expect(row).toEqual({ n: statuses.get(200), token: 256, ua: 512 });
  });
});
