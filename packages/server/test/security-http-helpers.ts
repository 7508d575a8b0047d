import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  text: string;
  /** ms from the request's headers being sent to the answer's first byte. */
  answeredAfterMs: number;
  /** Body bytes the client had written when the answer came. */
  bodyBytesSent: number;
}

/**
 * A request written by hand, its body sent `chunk` by `chunk` until the server answers (an HTTP
 * client library may fail the whole call when the server answers early and closes, which is what
 * a refused body gets). With `chunked`, no Content-Length is sent: the cap must be found by reading.
 */
export function sendLargeBody(
  port: number,
  path: string,
  options: {
    headers: Record<string, string>;
    totalBytes: number;
    chunk: Buffer;
    chunked?: boolean;
    /** Sends only the headers for this long first: a server refusing from them answers meanwhile. */
    headersAloneMs?: number;
  },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let sent = 0;
    let answer = '';
    let started = 0;
    let answeredAt = 0;
    let sentAtAnswer = 0;
    const head = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
    for (const [k, v] of Object.entries(options.headers)) head.push(`${k}: ${v}`);
    head.push(options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${options.totalBytes}`);
    const pump = () => {
      while (sent < options.totalBytes && answeredAt === 0 && !socket.destroyed) {
        const piece = options.chunk.subarray(0, Math.min(options.chunk.length, options.totalBytes - sent));
        sent += piece.length;
        const data = options.chunked
          ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
          : piece;
        if (!socket.write(data)) return void socket.once('drain', pump);
      }
      if (sent >= options.totalBytes && options.chunked && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    socket.on('connect', () => {
      started = performance.now();
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      setTimeout(pump, options.headersAloneMs ?? 0);
    });
    socket.on('data', (d: Buffer) => {
      if (answeredAt === 0) {
        answeredAt = performance.now();
        sentAtAnswer = sent;
      }
      answer += d.toString();
    });
    // The server may reset a connection whose body it stopped reading (a write then fails with
    // EPIPE): what was answered before is what counts.
    let failure: Error | undefined;
    socket.on('error', (error) => (failure = error));
    socket.on('close', () => {
      if (!answer) return reject(failure ?? new Error('closed without an answer'));
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0),
        text: answer.slice(answer.indexOf('\r\n\r\n') + 4),
        answeredAfterMs: answeredAt - started,
        bodyBytesSent: sentAtAnswer,
      });
    });
  });
}

/** A process's resident memory and its peak so far (bytes), from /proc. */
export async function memoryOf(pid: number): Promise<{ rssBytes: number; peakRssBytes: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rssBytes: kb('VmRSS'), peakRssBytes: kb('VmHWM') };
}

/** Opens a TCP connection (from `localAddress` if given) and resolves once it is connected. */
export function openSocket(port: number, localAddress?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with how long after `since` the socket closed, and everything it received. */
export function closed(
  socket: Socket,
  since = performance.now(),
): Promise<{ afterMs: number; received: string }> {
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    if (socket.destroyed) resolve({ afterMs: performance.now() - since, received });
    socket.once('close', () => resolve({ afterMs: performance.now() - since, received }));
  });
}
