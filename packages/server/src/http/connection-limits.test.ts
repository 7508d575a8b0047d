import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionTimeouts, releaseBodyDeadline } from './connection-limits.js';

// The timeouts with short limits on a real HTTP server fed by hand, as listeners.ts feeds it; the
// production limits are waited out in test/security-http-timeouts.test.ts.
const limits = { headersTimeoutMs: 300, requestTimeoutMs: 600, idleTimeoutMs: 400, perAddress: 10 };

describe('ConnectionTimeouts', () => {
  let http: HttpServer;
  let tcp: Server;
  let port: number;
  beforeEach(async () => {
    http = createHttpServer((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200);
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
      } else {
        // A streamed upload (vod/file-api.ts) lifts the whole-body deadline.
        if (req.url === '/long-upload') releaseBodyDeadline(req);
        req.on('end', () => res.end('ok')).resume();
      }
    });
    const timeouts = new ConnectionTimeouts(http, limits);
    tcp = createServer((socket) => {
      timeouts.watch(socket);
      http.emit('connection', socket);
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    port = (tcp.address() as { port: number }).port;
  });
  afterEach(() => new Promise<void>((resolve) => tcp.close(() => resolve())));

  const open = () =>
    new Promise<{ socket: Socket; closed: Promise<{ afterMs: number; received: string }> }>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        const since = performance.now();
        let received = '';
        socket.on('data', (d: Buffer) => (received += d.toString()));
        socket.on('error', () => undefined);
        const closed = new Promise<{ afterMs: number; received: string }>((done) =>
          socket.once('close', () => done({ afterMs: performance.now() - since, received })),
        );
        resolve({ socket, closed });
      });
    });

  it('answers 408 and closes when the body does not arrive in time', async () => {
    const { socket, closed } = await open();
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc');
    const drip = setInterval(() => socket.writable && socket.write('d'), 100);
    const { afterMs, received } = await closed;
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThan(limits.requestTimeoutMs - 50);
    expect(afterMs).toBeLessThan(limits.requestTimeoutMs + 1000);
  });

  it('lets a route that lifted the body deadline take its body as long as it keeps coming', async () => {
    const { socket, closed } = await open();
    socket.write('POST /long-upload HTTP/1.1\r\nHost: x\r\nContent-Length: 30\r\n\r\n');
    let sent = 0;
    // 30 bytes at one per 100 ms: 3 s, five times the body deadline.
    const drip = setInterval(() => socket.writable && sent < 30 && (sent++, socket.write('d')), 100);
    const { received } = await closed;
    clearInterval(drip);
    expect(sent).toBe(30);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('lets a body that arrives in time be answered, then closes the idle connection', async () => {
    const { socket, closed } = await open();
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc');
    const { afterMs, received } = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).not.toContain('408');
    expect(afterMs).toBeGreaterThan(limits.idleTimeoutMs - 50);
  });

  it('never cuts an answer in progress, however long', async () => {
    const { socket, closed } = await open();
    socket.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
    const outcome = await Promise.race([
      closed.then(() => 'closed'),
      new Promise((resolve) =>
        setTimeout(resolve, 3 * limits.idleTimeoutMs + limits.requestTimeoutMs, 'open'),
      ),
    ]);
    expect(outcome).toBe('open');
    socket.destroy();
  });

  it('answers pipelined requests and arms the idle deadline only after the last', async () => {
    const { socket, closed } = await open();
    const request = 'GET /a HTTP/1.1\r\nHost: x\r\n\r\n';
    socket.write(request + request + request);
    const { received } = await closed;
    expect(received.match(/HTTP\/1\.1 200 /g)).toHaveLength(3);
  });
});
