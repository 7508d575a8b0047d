import { spawn } from 'node:child_process';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls, createSecureContext, type SecureContext } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSelfSigned } from '../tls/self-signed.js';
import { RTMP_LIMITS } from './rtmp/rtmp-limits.js';
import { RtmpServer } from './rtmp/rtmp-server.js';

/** A self-signed certificate for `name`, as the server makes at first start. */
function certificate(name: string): { context: SecureContext } {
  const { certPem, keyPem } = makeSelfSigned(name);
  return { context: createSecureContext({ cert: certPem, key: keyPem, minVersion: 'TLSv1.2' }) };
}

/** The subject CN a TLS client is shown by the server at `port`. */
const servedName = (port: number) =>
  new Promise<string>((resolve, reject) => {
    const socket = connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
      resolve(String(socket.getPeerCertificate().subject.CN));
      socket.destroy();
    });
    socket.once('error', reject);
  });

/** Bytes sent on a plain TCP connection; resolves once the server closed it. */
const closedAfter = (port: number, bytes: Buffer) =>
  new Promise<void>((resolve) => {
    const socket = connectTcp(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('error', () => undefined);
    // Read (and drop) what comes, a TLS alert: the end is seen only on a socket being read.
    socket.resume();
    socket.once('close', () => resolve());
  });

describe('RTMPS: the RTMP listener behind a TLS handshake', () => {
  const first = certificate('first.example');
  let current = first.context;
  const lines: string[] = [];
  const log = { notice: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
  let server: RtmpServer | undefined;
  afterEach(() => server?.close());

  const start = async (handshakeTimeoutMs = RTMP_LIMITS.handshakeTimeoutMs) => {
    const chunks: Buffer[] = [];
    server = new RtmpServer(
      () => ({ write: (b) => chunks.push(b), end: () => undefined }),
      log,
      undefined,
      { ...RTMP_LIMITS, handshakeTimeoutMs },
      { name: 'rtmps', secureContext: () => current },
    );
    return { port: await server.listen(0, '127.0.0.1'), chunks };
  };

  it('takes an ffmpeg publish over rtmps:// and hands on its FLV', async () => {
    const { port, chunks } = await start();
    const encoder = spawn('ffmpeg', [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=160x120:duration=1',
      ],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'flv', `rtmps://127.0.0.1:${port}/static/cam`],
    ]);
    const code = await new Promise((resolve) => encoder.once('exit', resolve));
    expect(code).toBe(0);
    expect(Buffer.concat(chunks).subarray(0, 3).toString()).toBe('FLV');
    expect(chunks.length).toBeGreaterThan(10);
  }, 30_000);

  it('ends a plain RTMP handshake or garbage with a log line and keeps serving TLS peers', async () => {
    const { port } = await start();
    // C0 + C1 of a plain RTMP handshake, then bytes that are nothing at all.
    await closedAfter(port, Buffer.concat([Buffer.from([3]), Buffer.alloc(1536, 7)]));
    await closedAfter(port, Buffer.from('\x16\x03\x01\xff\xffnot a client hello'));
    expect(
      lines.filter((l) => /^rtmps connection from 127\.0\.0\.1 ended: TLS handshake failed/.test(l)),
    ).toHaveLength(2);
    expect(await servedName(port)).toBe('first.example');
  });

  it('drops a peer that never finishes its handshake at the handshake timeout', async () => {
    const { port } = await start(300);
    const startedMs = Date.now();
    await closedAfter(port, Buffer.from([0x16, 0x03, 0x01])); // a ClientHello that never comes whole
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(250);
    expect(lines).toContain('rtmps connection from 127.0.0.1 ended: no TLS handshake within 300 ms');
  });

  it('presents a replaced certificate to the next handshake without reopening the port', async () => {
    const { port } = await start();
    expect(await servedName(port)).toBe('first.example');
    current = certificate('second.example').context;
    expect(await servedName(port)).toBe('second.example');
  });
});
