import fc from 'fast-check';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { tlsAnswers } from './https-helpers.js';

const HTTP_CASES = 150;
const RTMPS_CASES = 100;
/** A peer that neither answers nor closes within this is cut off by the test, not waited for. */
const PEER_WAIT_MS = 1500;

type Dial = (port: number) => Socket;
const plain: Dial = (port) => tcpConnect({ port, host: '127.0.0.1' });
const secure: Dial = (port) =>
  tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });

/**
 * Sends `bytes` and resolves with what came back before the peer closed (or PEER_WAIT_MS passed).
 * With `halfClose` the sending side ends after them (a TLS peer's close_notify: an HTTP server then
 * drops the request unanswered, so requests keep the connection open and ask `Connection: close`).
 */
function exchange(dial: Dial, port: number, bytes: Buffer, halfClose = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = dial(port);
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, PEER_WAIT_MS);
    socket.once(dial === secure ? 'secureConnect' : 'connect', () =>
      halfClose ? socket.end(bytes) : socket.write(bytes),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('close', done);
    socket.once('error', done);
  });
}

/** Request lines and headers from the pieces the TLS-era code reads: Host, the redirect and admin-split paths. */
const request = fc
  .record({
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'OPTIONS', 'BREW', ''),
    path: fc
      .array(
        fc.oneof(
          fc.constantFrom(
            '/',
            '/admin/',
            '/flussonic/api/',
            'server',
            'cluster/',
            'pulse?query=',
            '/letsencrypt',
          ),
          fc.constantFrom(
            '/metrics',
            '/.well-known/acme-challenge/',
            '/demo/index.m3u8',
            '..',
            '%00',
            '//',
            '?',
          ),
          fc.string({ maxLength: 10 }),
        ),
        { maxLength: 5 },
      )
      .map((parts) => parts.join('')),
    host: fc.option(
      fc.oneof(
        fc.constantFrom('localhost', 'a.example:8443', '[::1]', 'x/y', 'h\tz'),
        fc.string({ maxLength: 20 }),
      ),
      { nil: undefined },
    ),
    extra: fc.array(
      fc.tuple(fc.constantFrom('Cookie', 'Authorization', 'Content-Length', 'X'), fc.string()),
      {
        maxLength: 3,
      },
    ),
  })
  .map(({ method, path, host, extra }) => {
    const headers = [...(host === undefined ? [] : [['Host', host]]), ...extra, ['Connection', 'close']];
    const head = `${method} ${path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}`;
    return Buffer.from(`${head}\r\n`, 'latin1');
  });

/**
 * Issue 19's listeners take requests from anyone over plain HTTP, HTTPS (HTTP/2-capable secure
 * server feeding Fastify, the redirect, HSTS, the admin split) and RTMPS. Random and mutated input
 * on each may get a refusal, never a server error, and the server keeps answering afterwards.
 */
describe('TLS listeners on arbitrary input', () => {
  let server: RunningServer;
  let https: number;
  let admin: number;
  let rtmps: number;

  beforeAll(async () => {
    [https, admin, rtmps] = [await freePort(), await freePort(), await freePort()];
    server = await startServer({
      config:
        `${minimalConfig}https ${https};\nrtmps ${rtmps};\n` +
        `stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await tlsAnswers(https)) && (await tlsAnswers(rtmps)), 20_000);
    // Set live: the harness waits for the API on plain HTTP, which the redirect would move.
    const set = await fetch(`${server.url}/flussonic/api/modify_config`, {
      method: 'POST',
      headers: { authorization: basicAuth(), 'content-type': 'application/json' },
      body: JSON.stringify({ https_redirect: true, hsts_max_age_seconds: 60 }),
    });
    expect(set.status).toBe(200);
    await waitFor(async () => (await fetch(`${server.url}/admin/`, { redirect: 'manual' })).status === 308);
  });
  afterAll(() => server?.cleanup());

  /** The API over HTTPS (plain HTTP is redirected there now). */
  const apiStatus = async () => {
    const ask = `GET /flussonic/api/server HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${basicAuth()}\r\nConnection: close\r\n\r\n`;
    return /^HTTP\/1\.1 (\d{3})/.exec(await exchange(secure, https, Buffer.from(ask)))?.[1];
  };

  it('ends random bytes after the RTMPS handshake with that connection only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 3000 }),
          // A valid C0 (version 3) and a short C1: the RTMP handshake reached, then cut or garbled.
          fc.uint8Array({ maxLength: 1600 }).map((rest) => Uint8Array.from([3, ...rest])),
        ),
        async (bytes) => {
          await exchange(secure, rtmps, Buffer.from(bytes), true);
        },
      ),
      { numRuns: RTMPS_CASES },
    );
    expect(await tlsAnswers(rtmps)).toBe(true);
    expect(await apiStatus()).toBe('200');
  }, 120_000);
  it('answers random requests on the HTTP and HTTPS ports with no server error, public and admin', async () => {
    // Every request is whole: most get an answer (a refusal or a page); a test of silence would pass anything.
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(request, fc.boolean(), async (bytes, overTls) => {
        const answer = await exchange(overTls ? secure : plain, overTls ? https : server.port, bytes);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
        if (status) answered++;
        if (status) expect(Number(status), answer.slice(0, 200)).toBeLessThan(500);
      }),
      { numRuns: HTTP_CASES },
    );
    expect(answered).toBeGreaterThan(HTTP_CASES * 0.9);
    answered = 0;
    // The same with admin ports set: the split answers 404 where the API was, never an error.
    const body = JSON.stringify({ admin_http: [admin] });
    const post =
      `POST /flussonic/api/modify_config HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${basicAuth()}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    expect(await exchange(secure, https, Buffer.from(post))).toMatch(/^HTTP\/1\.1 200/);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${admin}/admin/`).catch(() => undefined))?.ok);
    await fc.assert(
      fc.asyncProperty(request, async (bytes) => {
        const answer = await exchange(secure, https, bytes);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
        if (status) answered++;
        if (status) expect(Number(status), answer.slice(0, 200)).toBeLessThan(500);
      }),
      { numRuns: HTTP_CASES },
    );
    expect(answered).toBeGreaterThan(HTTP_CASES * 0.9);
    expect(
      (
        await fetch(`http://127.0.0.1:${admin}/flussonic/api/server`, {
          headers: { authorization: basicAuth() },
        })
      ).status,
    ).toBe(200);
  }, 120_000);
});
