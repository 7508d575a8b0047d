import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { closed, openSocket } from './security-http-helpers.js';

// The production defaults (http/connection-limits.ts), waited out for real: a test that shortened
// them would not show that they are what a running server applies.
const HEADERS_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 15_000;
const PER_ADDRESS = 256;
const SLACK_MS = 4000;

describe('HTTP connection timeouts', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
  });
  afterAll(() => server.cleanup());

  it.concurrent(
    'closes a slowloris connection (a header byte a second) within the header timeout',
    async () => {
      const socket = await openSocket(server.port);
      const started = performance.now();
      const end = closed(socket, started);
      socket.write('GET /flussonic/api/server HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      const drip = setInterval(() => socket.writable && socket.write('a'), 1000);
      const { afterMs, received } = await end;
      clearInterval(drip);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(afterMs).toBeGreaterThan(HEADERS_TIMEOUT_MS - 1000);
      expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
    },
    40_000,
  );

  it.concurrent(
    'closes a connection that never sends a byte within the header timeout',
    async () => {
      const socket = await openSocket(server.port);
      const { afterMs } = await closed(socket);
      expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
    },
    40_000,
  );

  it.concurrent(
    'closes a kept-alive connection idle after its answer, and one that trickles its next request',
    async () => {
      const idle = await openSocket(server.port);
      const trickle = await openSocket(server.port);
      const request = `GET /flussonic/api/server HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basicAuth()}\r\n\r\n`;
      idle.write(request);
      trickle.write(request);
      const answered = performance.now();
      const idleEnd = closed(idle, answered);
      const trickleEnd = closed(trickle, answered);
      // The next request starts but never ends: the idle deadline still holds.
      trickle.write('GET /flussonic/api/server HTTP/1.1\r\n');
      const drip = setInterval(() => trickle.writable && trickle.write('X'), 1000);
      const [a, b] = await Promise.all([idleEnd, trickleEnd]);
      clearInterval(drip);
      expect(a.received).toMatch(/^HTTP\/1\.1 200 /);
      expect(a.received).toContain(`Keep-Alive: timeout=${IDLE_TIMEOUT_MS / 1000}`);
      for (const end of [a, b]) {
        expect(end.afterMs).toBeGreaterThan(IDLE_TIMEOUT_MS - 1000);
        expect(end.afterMs).toBeLessThan(IDLE_TIMEOUT_MS + SLACK_MS);
      }
    },
    40_000,
  );

  it.concurrent(
    'keeps an MPEG-TS player and a websocket open past every timeout',
    async () => {
      let bytes = 0;
      let lastByteAt = 0;
      let ended = false;
      const player = get(`${server.url}/demo/mpegts`, (res) => {
        expect(res.statusCode).toBe(200);
        res.on('data', (d: Buffer) => {
          bytes += d.length;
          lastByteAt = performance.now();
        });
        res.on('close', () => (ended = true));
      });
      player.on('error', () => (ended = true));
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/flussonic/api/events`, {
        headers: { authorization: basicAuth() },
      });
      let socketClosed = false;
      socket.on('close', () => (socketClosed = true));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      await waitFor(() => bytes > 0, 20_000);
      const started = performance.now();
      // Past the header and the idle timeouts, both quiet from the client's side all along.
      await waitFor(() => performance.now() - started > IDLE_TIMEOUT_MS + SLACK_MS, 30_000, 500);
      expect(ended).toBe(false);
      expect(performance.now() - lastByteAt).toBeLessThan(3000);
      expect(socketClosed).toBe(false);
      const answer = new Promise((resolve) => socket.once('message', resolve));
      socket.send('read_config');
      expect(String(await answer)).toContain('"streams"');
      player.destroy();
      socket.close();
    },
    60_000,
  );
});

describe('HTTP connections per address', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.cleanup());

  const status = (localAddress: string) =>
    new Promise<number>((resolve, reject) => {
      const request = get(`${server.url}/flussonic/api/server`, { localAddress, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', reject);
    });

  it('refuses connections past the per-address cap while other addresses and freed slots work', async () => {
    const held = await Promise.all(
      Array.from({ length: PER_ADDRESS }, () => openSocket(server.port, '127.0.0.1')),
    );
    const extra = await openSocket(server.port, '127.0.0.1');
    const refused = await closed(extra);
    expect(refused.received).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.received).toContain(`too many connections from this address (at most ${PER_ADDRESS})`);
    expect(await status('127.0.0.2')).toBe(401);
    for (const socket of held.slice(0, 5)) socket.destroy();
    await waitFor(() => status('127.0.0.1').then((s) => s === 401), 5000);
    for (const socket of held) socket.destroy();
    await waitFor(() => server.output().includes('already holds 256, the most one address may open'));
  });
});
