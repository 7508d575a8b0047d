import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientSession, ClientSessions } from './client-sessions.js';

export const COMMON_HEADERS = {
  // Players embedded on other sites fetch playlists and segments cross-origin.
  'access-control-allow-origin': '*',
};

export function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-cache',
  });
  res.end(`${message}\n`);
}

export function send(
  sessions: ClientSessions,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
  type: string,
  body: Buffer | string,
  cache: string,
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  // A flat list: Node copies no header object per answer (every segment and playlist comes here).
  res.writeHead(200, [
    'access-control-allow-origin',
    COMMON_HEADERS['access-control-allow-origin'],
    'content-type',
    type,
    'content-length',
    String(bytes.length),
    'cache-control',
    cache,
  ]);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.end(bytes);
  sessions.sent(session, bytes.length, Date.now());
}
