import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { COMMON_HEADERS } from '../delivery/respond.js';

/** A refusal as `{error}` JSON: what was wrong, for the operator and the player's log. */
export function refuseJson(res: ServerResponse, status: number, error: string): void {
  const body = JSON.stringify({ error });
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-cache',
  });
  res.end(body);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'application/json',
    'content-length': body.length,
    'cache-control': 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The one byte range of a `Range: bytes=a-b` header within `size` bytes; null when unsatisfiable. */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file is an allowed answer (RFC 9110 §14.2).
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? null : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? null : { start, end };
}

/**
 * A file of known size, whole or the one range asked for (a player seeking in an MP4 download),
 * counted to the session as it goes out. `done` runs once the response is over, however it ended.
 */
export function sendFile(
  sessions: ClientSessions,
  session: ClientSession,
  req: IncomingMessage,
  res: ServerResponse,
  file: { path: string; size: number; type: string; name?: string },
  done: () => void,
): void {
  const range = byteRange(req.headers.range, file.size);
  if (range === null) {
    res.writeHead(416, { ...COMMON_HEADERS, 'content-range': `bytes */${file.size}` });
    res.end();
    return done();
  }
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  const headers: Record<string, string | number> = {
    ...COMMON_HEADERS,
    'content-type': file.type,
    'content-length': end - start + 1,
    'accept-ranges': 'bytes',
    'cache-control': 'no-cache',
  };
  if (file.name) headers['content-disposition'] = `inline; filename="${file.name}"`;
  if (range) headers['content-range'] = `bytes ${start}-${end}/${file.size}`;
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || file.size === 0) {
    res.end();
    return done();
  }
  session.openResponses++;
  const stream = createReadStream(file.path, { start, end });
  stream.on('data', (chunk) => sessions.sent(session, chunk.length, Date.now()));
  stream.on('error', () => res.destroy());
  stream.pipe(res);
  res.once('close', () => {
    stream.destroy();
    session.openResponses--;
    done();
  });
}
