import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { ADMIN } from './harness.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request with full control over its headers and the client address (any 127.x.y.z
 * reaches a server on 127.0.0.1, so a test can play several clients), unlike fetch which adds
 * headers of its own.
 */
export function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        // Node sends a DELETE body with no length header at all unless told its length.
        headers: {
          ...options.headers,
          ...(options.body === undefined
            ? {}
            : { 'content-length': String(Buffer.byteLength(options.body)) }),
        },
        localAddress: options.from,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export const form = (login: string, password: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ login, password }).toString(),
});

/** Logs in through the form; returns the `sluice_session=…` cookie pair. */
export async function logIn(url: string, credentials = ADMIN): Promise<string> {
  const answer = await call(`${url}/admin/login`, form(credentials.login, credentials.password));
  if (answer.status !== 200) throw new Error(`login answered ${answer.status}: ${answer.body}`);
  const cookie = [answer.headers['set-cookie'] ?? []].flat()[0] ?? '';
  return cookie.split(';')[0]!;
}

/** What a logged-in console sends with a call. */
export const consoleHeaders = (cookie: string, url: string) => ({
  cookie,
  origin: new URL(url).origin,
  'x-requested-with': 'sluice',
});

/** Opens the events websocket (`base` may end in a query); resolves 'open' or the refusing HTTP status. */
export function openSocket(base: string, options: WebSocket.ClientOptions = {}): Promise<'open' | number> {
  const url = new URL(base);
  const target = `ws://${url.host}/flussonic/api/events${url.search}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(target, options);
    socket.on('error', reject);
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (_req, res) => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
  });
}
