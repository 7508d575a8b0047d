import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';

/** A program run to its end: exit code and what it printed (stderr last 2 KB). */
export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs `binary` with `args`, killed after `timeoutMs`; resolves when it exits. */
export function run(binary: string, args: string[], timeoutMs = 40_000): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-2048));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Frames ffmpeg reports it decoded ("frame=  25"): the last count printed. */
export const framesDecoded = (output: string): number =>
  Number([...output.matchAll(/frame=\s*(\d+)/g)].pop()?.[1] ?? 0);

/** An ffmpeg reading rtsp://… over `transport` and decoding `frames` video frames to nowhere. */
export const ffmpegPlay = (url: string, transport: 'tcp' | 'udp', frames = 25) =>
  run('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-rtsp_transport', transport, '-i', url],
    ...['-frames:v', String(frames), '-f', 'null', '-'],
  ]);

/** A raw RTSP connection: write bytes, read what comes back, see it close. */
export class RawRtsp {
  private received = Buffer.alloc(0);
  closed = false;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => (this.received = Buffer.concat([this.received, d])));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawRtsp> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawRtsp(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  get text(): string {
    return this.received.toString('latin1');
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A request with the given method, URL, CSeq and headers. */
export const request = (method: string, url: string, cseq: number | string, headers: string[] = []) =>
  [`${method} ${url} RTSP/1.0`, `CSeq: ${cseq}`, ...headers, '', ''].join('\r\n');
