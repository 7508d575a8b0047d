import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { waitFor } from './harness.js';

/**
 * A connection to a TLS port (RTMPS, RTSPS) as a client that accepts the server's self-signed
 * certificate (as ffmpeg does by default): what it was shown, what it received, whether it closed.
 */
export class TlsPeer {
  received = Buffer.alloc(0);
  closed = false;
  private constructor(
    private readonly socket: Socket,
    /** The certificate's subject CN the server presented. */
    readonly servedName: string,
  ) {
    socket.on('data', (d: Buffer) => (this.received = Buffer.concat([this.received, d])));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<TlsPeer> {
    return new Promise((resolve, reject) => {
      const socket = connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () =>
        resolve(new TlsPeer(socket, String(socket.getPeerCertificate().subject?.CN))),
      );
      socket.once('error', reject);
    });
  }

  get text(): string {
    return this.received.toString('latin1');
  }

  write(data: string | Buffer): void {
    if (!this.closed) this.socket.write(data);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** One RTSP request over RTSPS; the answer's head (status line and headers). */
export async function rtspsAsk(port: number, request: string): Promise<string> {
  const peer = await TlsPeer.open(port);
  peer.write(request);
  await waitFor(() => peer.text.includes('\r\n\r\n') || peer.closed, 10_000);
  peer.destroy();
  return peer.text;
}

/**
 * Plain bytes (not TLS) on a new TCP connection: resolves with how long the server took to close
 * it. `bytes` empty: the peer opens and says nothing (a stalled handshake).
 */
export function plainBytesClosedAfterMs(port: number, bytes: Buffer | string): Promise<number> {
  return new Promise((resolve, reject) => {
    const startedMs = Date.now();
    const socket = connectTcp(port, '127.0.0.1', () => {
      if (bytes.length > 0) socket.write(bytes);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') reject(error);
    });
    // A TLS alert may come back: it is read (and dropped) so the close is seen.
    socket.resume();
    socket.once('close', () => resolve(Date.now() - startedMs));
  });
}

/** Whether a TCP connection to `port` on 127.0.0.1 is accepted (a listener is there). */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connectTcp(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
