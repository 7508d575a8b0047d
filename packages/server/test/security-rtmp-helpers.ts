import { spawnSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { type FlvTag, flvTags } from '../src/ingest/rtmp/rtmp-wire.js';
import { type RunningServer, waitFor } from './harness.js';

/**
 * Real H.264 + AAC as an encoder publishes it: two seconds of test pattern and tone encoded by
 * ffmpeg to FLV, read back as tags (sequence headers first). The base of the crafted sessions.
 */
export function recordedTags(seconds = 2): FlvTag[] {
  const flv = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=25:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-bf', '0'],
      ...['-c:a', 'aac', '-f', 'flv', 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  ).stdout;
  // Script data (onMetaData) is left out: encoders send it as @setDataFrame, not as a bare tag.
  return flvTags(flv).filter((t) => t.type === 8 || t.type === 9);
}

export interface RawRtmp {
  socket: Socket;
  /** Resolves when the server closed (or reset) the connection. */
  closed: Promise<void>;
  /** Bytes the server sent so far. */
  received: () => number;
}

/** A raw TCP connection to the RTMP port sending `parts` as given, ignoring what comes back. */
export function rawRtmp(port: number, parts: Buffer[] = []): RawRtmp {
  const socket = connect(port, '127.0.0.1');
  let received = 0;
  socket.on('data', (d: Buffer) => (received += d.length));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  for (const part of parts) socket.write(part);
  return { socket, closed, received: () => received };
}

/** Waits until the connection ends, failing after `timeoutMs`. */
export async function closedWithin(connection: RawRtmp, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([connection.closed, late]);
  } finally {
    clearTimeout(timer);
  }
  return Date.now() - started;
}

/** The server is up and serving the API (an authenticated GET /flussonic/api/server answers 200). */
export async function answersApi(server: RunningServer): Promise<boolean> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return false;
  const response = await server.api('/flussonic/api/server').catch(() => undefined);
  return response?.status === 200;
}

/** The server log lines (its stderr and stdout) that match `pattern`. */
export function logLines(server: RunningServer, pattern: RegExp): string[] {
  return server
    .output()
    .split('\n')
    .filter((line) => pattern.test(line));
}

/** Waits for a log line matching `pattern` and returns it. */
export function logLine(server: RunningServer, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  return waitFor(() => logLines(server, pattern)[0], timeoutMs);
}
