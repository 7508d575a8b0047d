import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:http2';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  basicAuth,
  freePort,
  minimalConfig,
  type RunningServer,
  startServer,
  waitFor,
} from './harness.js';
import { tlsAnswers } from './https-helpers.js';
import { modifyConfig } from './media-helpers.js';

const VIEWER = { login: 'watcher', password: 'look-only-pw' };
const loginForm = (credentials = ADMIN) => new URLSearchParams(credentials).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over HTTPS (the server's certificate is self-signed), with its answer's headers. */
function overTls(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: init.method ?? 'GET',
        headers: init.headers,
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The session cookie a login over HTTP/2 gets (ALPN h2: the request's socket is HTTP/2's proxy of the TLS one). */
function loginOverH2(port: number): Promise<{ status: number; cookie: string }> {
  return new Promise((resolve, reject) => {
    const session = connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on('error', reject);
    const stream = session.request({ ':method': 'POST', ':path': '/admin/login', ...FORM });
    stream.on('response', (headers) => {
      resolve({ status: Number(headers[':status']), cookie: String(headers['set-cookie']) });
      session.close();
    });
    stream.on('error', reject);
    stream.end(loginForm());
  });
}

/** Issue 19 "Secure by default on TLS", and what a view_auth login is told and refused. */
describe('Secure cookie, HSTS and the HTTP→HTTPS redirect', () => {
  let server: RunningServer;
  let https: number;
  const plain = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { redirect: 'manual', ...init });

  beforeAll(async () => {
    https = await freePort();
    server = await startServer({
      config:
        `${minimalConfig}https ${https};\nhsts_max_age_seconds 600;\n` +
        `view_auth ${VIEWER.login} ${VIEWER.password};\nstream demo {\n  url publish://;\n}\n`,
    });
    await waitFor(() => tlsAnswers(https));
  });
  afterAll(() => server?.cleanup());

  it('marks the session cookie Secure when the login came over HTTPS, and not over HTTP', async () => {
    const secure = await overTls(https, '/admin/login', { method: 'POST', headers: FORM, body: loginForm() });
    expect(secure.status).toBe(200);
    expect(String(secure.headers['set-cookie'])).toMatch(/^sluice_session=[^;]+;.*; Secure$/);
    const h2 = await loginOverH2(https);
    expect(h2.status).toBe(200);
    expect(h2.cookie).toMatch(/^sluice_session=[^;]+;.*; Secure$/);

    const cleartext = await plain('/admin/login', { method: 'POST', headers: FORM, body: loginForm() });
    expect(cleartext.status).toBe(200);
    expect(cleartext.headers.get('set-cookie')).toMatch(/^sluice_session=[^;]+; Path=\/; HttpOnly/);
    expect(cleartext.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('sends HSTS over HTTPS only, and only while hsts_max_age_seconds is set', async () => {
    const auth = { authorization: basicAuth() };
    expect(
      (await overTls(https, '/flussonic/api/server', { headers: auth })).headers['strict-transport-security'],
    ).toBe('max-age=600');
    expect(
      (await plain('/flussonic/api/server', { headers: auth })).headers.get('strict-transport-security'),
    ).toBeNull();

    await modifyConfig(server, { hsts_max_age_seconds: null });
    const after = await overTls(https, '/flussonic/api/server', { headers: auth });
    expect(after.status).toBe(200);
    expect(after.headers['strict-transport-security']).toBeUndefined();
  });

  it('with https_redirect, sends the console and API to the HTTPS port and leaves playback alone', async () => {
    // Off: plain HTTP answers the console itself (503 here: the test server has no built console).
    expect((await plain('/admin')).status).not.toBe(308);
    await modifyConfig(server, { https_redirect: true });

    for (const path of ['/admin', '/admin/config?x=1', '/flussonic/api/server']) {
      const answer = await plain(path);
      expect(answer.status, path).toBe(308);
      expect(answer.headers.get('location')).toBe(`https://127.0.0.1:${https}${path}`);
    }
    // 308 keeps the method: a login form posted to the old address still logs in, once, over HTTPS.
    const login = await plain('/admin/login', { method: 'POST', headers: FORM, body: loginForm() });
    expect(login.status).toBe(308);
    expect(login.headers.get('set-cookie')).toBeNull();

    // Players and peers keep their plain URLs: the embed page, a playlist and a mirror's poll are answered, not moved.
    for (const path of ['/demo/embed.html', '/nosuch/index.m3u8', '/flussonic/api/cluster/streams']) {
      const answer = await plain(path);
      expect(answer.status, path).not.toBe(308);
      expect(answer.headers.get('location'), path).toBeNull();
    }
    // Over HTTPS the console is served: no redirect loop.
    const overHttps = await overTls(https, '/flussonic/api/server', {
      headers: { authorization: basicAuth() },
    });
    expect(overHttps.status).toBe(200);
  });

  it('tells a view_auth caller its access, and refuses a view_auth login equal to the admin one', async () => {
    const viewer = await overTls(https, '/flussonic/api/server', {
      headers: { authorization: basicAuth(VIEWER.login, VIEWER.password) },
    });
    expect(JSON.parse(viewer.body)).toMatchObject({ access: 'view' });
    expect(JSON.parse(viewer.body)).not.toHaveProperty('admin_token');
    const admin = await overTls(https, '/flussonic/api/server', { headers: { authorization: basicAuth() } });
    expect(JSON.parse(admin.body)).toMatchObject({ access: 'edit' });

    const refused = await overTls(https, '/flussonic/api/modify_config', {
      method: 'POST',
      headers: { authorization: basicAuth(), 'content-type': 'application/json' },
      body: JSON.stringify({ view_auth: { login: ADMIN.login, password: 'other-pw' } }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error).toMatch(/view_auth must have a login of its own/);
  });
});
