import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type RunningServer, startServer } from './harness.js';
import { call, consoleHeaders, logIn } from './security-auth-helpers.js';

const API = '/flussonic/api';
const VIEW = { login: 'viewer', password: 'view-secret-pw' };
const config = `http {http};\nedit_auth ${ADMIN.login} ${ADMIN.password};\nview_auth ${VIEW.login} ${VIEW.password};\n`;
const CREDENTIALS_ENDED = 4401;

/** An open events socket; `closed` resolves with the close code the server sent. */
async function openEvents(url: string, headers: Record<string, string>, query = '') {
  const socket = new WebSocket(`ws://${new URL(url).host}${API}/events${query}`, {
    headers: { origin: new URL(url).origin, ...headers },
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, closed };
}

describe('security: an open events socket outlives no credential', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config });
  });
  afterAll(() => server.cleanup());

  const modify = (body: unknown) =>
    server.api(`${API}/modify_config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('closes the socket of a session that logs out, and keeps another session’s', async () => {
    const leaving = await logIn(server.url);
    const staying = await logIn(server.url);
    const gone = await openEvents(server.url, { cookie: leaving });
    const kept = await openEvents(server.url, { cookie: staying });
    const { status } = await call(`${server.url}/admin/logout`, {
      method: 'POST',
      headers: consoleHeaders(leaving, server.url),
    });
    expect(status).toBe(200);
    expect(await gone.closed).toBe(CREDENTIALS_ENDED);
    // The other session's socket still answers.
    const answer = new Promise<string>((resolve) => kept.socket.once('message', (m) => resolve(String(m))));
    kept.socket.send('read_config');
    expect(JSON.parse(await answer)).toHaveProperty('event', 'current_config');
    kept.socket.close();
  });

  it('closes a view socket opened with ?auth= once the view password changes', async () => {
    const auth = Buffer.from(`${VIEW.login}:${VIEW.password}`).toString('base64');
    const view = await openEvents(server.url, {}, `?auth=${encodeURIComponent(auth)}`);
    expect((await modify({ view_auth: { login: VIEW.login, password: 'another-view-pw' } })).status).toBe(
      200,
    );
    expect(await view.closed).toBe(CREDENTIALS_ENDED);
    expect((await modify({ view_auth: VIEW })).status).toBe(200);
  });
});
