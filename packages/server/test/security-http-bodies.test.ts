import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth, minimalConfig, type RunningServer, startServer } from './harness.js';
import { memoryOf, sendLargeBody } from './security-http-helpers.js';

const VIEW = { login: 'viewer', password: 'view-pw' };
const MB = 1024 * 1024;
const API = '/flussonic/api';

/** 60 MB of config-shaped JSON: what froze the event loop for 18 s when it was parsed. */
const jsonChunk = Buffer.from(
  `{"streams":{${'"s":{"title":"xxxxxxxxxxxxxxxxxxxx"},'.repeat(MB / 36)}`,
).subarray(0, MB);

describe('request bodies', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config: `${minimalConfig}view_auth ${VIEW.login} ${VIEW.password};\n` });
  });
  afterAll(() => server.cleanup());

  const post = (path: string, body: string, authorization?: string, type = 'application/json') =>
    fetch(`${server.url}${API}/${path}`, {
      method: 'POST',
      headers: { 'content-type': type, ...(authorization ? { authorization } : {}) },
      body,
    });

  it('refuses a 60 MB JSON body without reading it, before and after login, naming the limit', async () => {
    const before = await memoryOf(server.process.pid!);
    const headers = { 'content-type': 'application/json' };
    const anonymous = await sendLargeBody(server.port, `${API}/modify_config`, {
      headers,
      totalBytes: 60 * MB,
      chunk: jsonChunk,
      headersAloneMs: 1000,
    });
    expect(anonymous.status).toBe(401);
    const admin = await sendLargeBody(server.port, `${API}/modify_config`, {
      headers: { ...headers, authorization: basicAuth() },
      totalBytes: 60 * MB,
      chunk: jsonChunk,
      headersAloneMs: 1000,
    });
    expect(admin.status).toBe(413);
    expect(JSON.parse(admin.text)).toEqual({ error: 'the body is larger than the 8 MiB this call accepts' });
    // Refused from its Content-Length, before a byte of the body was sent.
    expect(admin.bodyBytesSent).toBe(0);
    expect(anonymous.bodyBytesSent).toBe(0);
    const after = await memoryOf(server.process.pid!);
    console.log(
      `60 MB body: 401 after ${anonymous.answeredAfterMs.toFixed(0)} ms, 413 after ${admin.answeredAfterMs.toFixed(0)} ms; ` +
        `peak RSS ${(before.peakRssBytes / MB).toFixed(0)} -> ${(after.peakRssBytes / MB).toFixed(0)} MB`,
    );
    expect(after.peakRssBytes - before.peakRssBytes).toBeLessThan(40 * MB);
    expect((await server.api(`${API}/server`)).status).toBe(200);
  });

  it('refuses a chunked body at the cap and keeps answering other calls meanwhile', async () => {
    const send = () =>
      sendLargeBody(server.port, `${API}/save_raw_config`, {
        headers: { 'content-type': 'text/plain', authorization: basicAuth() },
        totalBytes: 9 * MB,
        chunk: Buffer.alloc(256 * 1024, 'stream a { url udp://239.0.0.1:1234; }\n'),
        chunked: true,
      });
    // Just past the cap: a client still sending when the answer comes may see a reset (EPIPE) before
    // it reads the answer (seen once in run 41). A second try reads it; either way nothing was saved.
    const refused = send().catch(send);
    const started = performance.now();
    expect((await server.api(`${API}/server`)).status).toBe(200);
    const otherCallMs = performance.now() - started;
    const answer = await refused;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error).toBe('the body is larger than the 8 MiB this call accepts');
    console.log(
      `chunked 9 MB raw config: 413 after ${answer.answeredAfterMs.toFixed(0)} ms; other call ${otherCallMs.toFixed(0)} ms`,
    );
    expect(otherCallMs).toBeLessThan(2000);
  });

  it('caps the small calls far lower: error reports, session ids, login', async () => {
    const viewer = basicAuth(VIEW.login, VIEW.password);
    const report = await post('error/store', JSON.stringify([{ message: 'x'.repeat(300 * 1024) }]), viewer);
    expect(report.status).toBe(413);
    expect(await report.json()).toEqual({ error: 'the body is larger than the 256 KiB this call accepts' });
    const login = await fetch(`${server.url}/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: ADMIN.login, password: 'p'.repeat(8 * 1024) }).toString(),
    });
    expect(login.status).toBe(413);
    expect(await login.json()).toEqual({ error: 'the body is larger than the 4 KiB this call accepts' });
  });

  it('answers 400 at once to JSON nested 100,000 deep, before and after login', async () => {
    const deep = {
      open: '['.repeat(100_000),
      arrays: `{"streams":{"a":{"title":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
      objects: `{"constructor":{},"x":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
    };
    for (const [shape, body] of Object.entries(deep)) {
      expect((await post('modify_config', body)).status, `${shape} without login`).toBe(401);
      const started = performance.now();
      const edit = await post('modify_config', body, basicAuth());
      expect(edit.status, shape).toBe(400);
      expect(await edit.json()).toEqual({ error: 'the JSON body is nested deeper than 64 levels' });
      expect(performance.now() - started).toBeLessThan(2000);
      if (body.length > 256 * 1024) continue;
      const view = await post('error/store', body, basicAuth(VIEW.login, VIEW.password));
      expect(view.status, `${shape} as error report`).toBe(400);
    }
    const config = (await (await server.api(`${API}/read_config`)).json()) as { streams?: object };
    expect(config.streams ?? {}).toEqual({});
  });

  it('still takes __proto__ out of harm’s way (Fastify’s poisoning check is kept)', async () => {
    const answer = await post('modify_config', '{"__proto__":{"admin":true},"streams":{}}', basicAuth());
    expect(answer.status).toBe(400);
  });

  it('takes a 20,000-stream config, well under the cap', async () => {
    let text = `http ${server.port};\nedit_auth ${ADMIN.login} ${ADMIN.password};\n`;
    for (let i = 0; i < 20_000; i++) {
      text += `\n# camera ${i}\nstream cam${i} {\n  url udp://239.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1234;\n  title "Camera ${i}";\n}\n`;
    }
    expect(Buffer.byteLength(text)).toBeLessThan((8 * MB) / 4);
    const answer = await post('parse_raw_config', text, basicAuth(), 'text/plain');
    expect(answer.status).toBe(200);
  });
});
