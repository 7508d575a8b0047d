import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth, type RunningServer, startServer, waitFor } from './harness.js';
import { call, consoleHeaders, form, logIn, openSocket } from './security-auth-helpers.js';

const API = '/flussonic/api';
const VIEW = { login: 'viewer', password: 'view-secret-pw' };
const config = `http {http};\nedit_auth ${ADMIN.login} ${ADMIN.password};\nview_auth ${VIEW.login} ${VIEW.password};\n`;

describe('security: authentication', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config });
  });
  afterAll(() => server.cleanup());

  const configText = () => readFile(server.configPath, 'utf8');

  describe('credentials are checked before the body is read', () => {
    it('answers an unauthenticated 20 MB modify_config with 401 before the body is sent', async () => {
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.write(
        `POST ${API}/modify_config HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\n`,
      );
      // One megabyte of the twenty: the answer must come without the rest.
      socket.write(`{"a":"${'x'.repeat(1024 * 1024)}`);
      try {
        await waitFor(() => received.startsWith('HTTP/1.1 401'), 10_000);
      } finally {
        socket.destroy();
      }
      expect(received).toContain('credentials are missing or wrong');
    });
  });

  describe('requests from other sites (CSRF)', () => {
    it('JSON calls refuse form-encoded, multipart and text/plain bodies with 415, changing nothing', async () => {
      const before = await configText();
      for (const type of [
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data; boundary=x',
      ]) {
        const answer = await call(`${server.url}${API}/modify_config`, {
          method: 'POST',
          headers: { authorization: basicAuth(), 'content-type': type },
          body: '{"rtmp":1940}',
        });
        expect(answer.status, type).toBe(415);
        expect(JSON.parse(answer.body).error).toMatch(/takes a JSON body/);
      }
      expect(await configText()).toBe(before);
    });

    it('refuses a logged-in call whose Origin is another port of the same host', async () => {
      const cookie = await logIn(server.url);
      const before = await configText();
      const answer = await call(`${server.url}${API}/modify_config`, {
        method: 'POST',
        headers: {
          ...consoleHeaders(cookie, server.url),
          origin: 'http://127.0.0.1:1',
          'content-type': 'application/json',
        },
        body: '{"rtmp":1940}',
      });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error).toMatch(/http:\/\/127\.0\.0\.1:1.* is refused/);
      expect(await configText()).toBe(before);
    });

    it('refuses a same-site request without Origin (Sec-Fetch-Site) and a cookie call without the console header', async () => {
      const cookie = await logIn(server.url);
      const sameSite = await call(`${server.url}${API}/stream_restart/x`, {
        method: 'POST',
        headers: { cookie, 'x-requested-with': 'sluice', 'sec-fetch-site': 'same-site' },
      });
      expect(sameSite.status).toBe(403);
      const noHeader = await call(`${server.url}${API}/modify_config`, {
        method: 'POST',
        headers: { cookie, origin: new URL(server.url).origin, 'content-type': 'application/json' },
        body: '{"rtmp":1940}',
      });
      expect(noHeader.status).toBe(403);
      expect(JSON.parse(noHeader.body).error).toMatch(/X-Requested-With: sluice/);
      const withHeader = await call(`${server.url}${API}/modify_config`, {
        method: 'POST',
        headers: { ...consoleHeaders(cookie, server.url), 'content-type': 'application/json' },
        body: '{"rtmp":1940}',
      });
      expect(withHeader.status).toBe(200);
      // API clients with the password (curl) need no console header.
      const basic = await call(`${server.url}${API}/modify_config`, {
        method: 'POST',
        headers: { authorization: basicAuth(), 'content-type': 'application/json' },
        body: '{"rtmp":1941}',
      });
      expect(basic.status).toBe(200);
      expect(await configText()).toMatch(/^rtmp 1941;$/m);
    });

    it('refuses the login form posted from another origin', async () => {
      const answer = await call(`${server.url}/admin/login`, {
        ...form(ADMIN.login, ADMIN.password),
        headers: { ...form('', '').headers, origin: 'http://evil.example' },
      });
      expect(answer.status).toBe(403);
      expect(answer.headers['set-cookie']).toBeUndefined();
    });

    it('refuses an events websocket opened from another origin, with the session cookie', async () => {
      const cookie = await logIn(server.url);
      expect(await openSocket(server.url, { headers: { cookie }, origin: 'http://127.0.0.1:1' })).toBe(403);
      expect(await openSocket(server.url, { headers: { cookie }, origin: new URL(server.url).origin })).toBe(
        'open',
      );
    });
  });

  describe('?auth= in the URL', () => {
    it('is accepted on the events websocket only, not on API calls', async () => {
      const auth = encodeURIComponent(Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64'));
      expect((await call(`${server.url}${API}/read_config?auth=${auth}`)).status).toBe(401);
      expect((await call(`${server.url}${API}/server?auth=${auth}`)).status).toBe(401);
      expect(await openSocket(server.url)).toBe(401);
      expect(await openSocket(`${server.url}?auth=${auth}`)).toBe('open');
    });
  });

  describe('sessions', () => {
    it('a view session ends when the view password changes', async () => {
      const cookie = await logIn(server.url, VIEW);
      expect((await call(`${server.url}${API}/read_config`, { headers: { cookie } })).status).toBe(200);
      const changed = await server.api(`${API}/modify_config`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ view_auth: { login: VIEW.login, password: 'another-view-pw' } }),
      });
      expect(changed.status).toBe(200);
      expect((await call(`${server.url}${API}/read_config`, { headers: { cookie } })).status).toBe(401);
      await server.api(`${API}/modify_config`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ view_auth: VIEW }),
      });
    });

    it('a console session outlives a server restart, and logout ends it on the server', async () => {
      const cookie = await logIn(server.url);
      await server.restart();
      expect((await call(`${server.url}${API}/read_config`, { headers: { cookie } })).status).toBe(200);
      const { status } = await call(`${server.url}/admin/logout`, {
        method: 'POST',
        headers: consoleHeaders(cookie, server.url),
      });
      expect(status).toBe(200);
      expect((await call(`${server.url}${API}/read_config`, { headers: { cookie } })).status).toBe(401);
    });
  });
});

describe('security: failed logins back off', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config });
  });
  afterAll(() => server.cleanup());

  it('answers 429 with Retry-After to a guessing run, logs it, and still lets the admin in from elsewhere', async () => {
    const statuses: number[] = [];
    let refusal: { retryAfter?: string; error?: string } = {};
    for (let i = 0; i < 50; i++) {
      const answer = await call(`${server.url}/admin/login`, {
        ...form(ADMIN.login, `guess-${i}`),
        from: '127.0.0.1',
      });
      statuses.push(answer.status);
      if (answer.status === 429)
        refusal = { retryAfter: String(answer.headers['retry-after']), error: JSON.parse(answer.body).error };
    }
    expect(new Set(statuses)).toEqual(new Set([403, 429]));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
    expect(Number(refusal.retryAfter)).toBeGreaterThan(0);
    expect(refusal.error).toMatch(/too many failed logins: try again in \d+ s/);

    // The right password from the guessing address is refused too: no oracle for the guesser.
    expect(
      (await call(`${server.url}/admin/login`, { ...form(ADMIN.login, ADMIN.password), from: '127.0.0.1' }))
        .status,
    ).toBe(429);
    // From another address the admin logs in, by form and by Basic auth.
    expect(
      (await call(`${server.url}/admin/login`, { ...form(ADMIN.login, ADMIN.password), from: '127.0.0.2' }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(`${server.url}${API}/server`, {
          headers: { authorization: basicAuth() },
          from: '127.0.0.2',
        })
      ).status,
    ).toBe(200);

    await waitFor(() => server.output().includes('login failed for "admin" from 127.0.0.1 via login form'));
    expect(server.output()).toMatch(/further tries wait \d+ s/);
  });

  it('backs off Basic auth on API calls and the websocket the same way', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await call(`${server.url}${API}/read_config`, {
        headers: { authorization: basicAuth(`nobody-${i % 3}`, 'wrong') },
        from: '127.0.0.3',
      });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    const auth = encodeURIComponent(Buffer.from('nobody:wrong').toString('base64'));
    const refused = await openSocket(`${server.url}?auth=${auth}`, { localAddress: '127.0.0.3' });
    expect(refused).toBe(429);
    await waitFor(() =>
      server.output().includes('login failed for "nobody-0" from 127.0.0.3 via basic auth'),
    );
  });
});
