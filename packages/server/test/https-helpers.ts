import { request, type RequestOptions } from 'node:https';
import { connect as connectH2 } from 'node:http2';
import { type ConnectionOptions, connect as connectTls, type PeerCertificate } from 'node:tls';
import { basicAuth } from './harness.js';

export interface HttpsAnswer {
  status: number;
  body: string;
  /** The protocol the TLS handshake agreed on (ALPN). */
  alpn: string | false | null;
  /** SHA-256 fingerprint of the certificate the server presented. */
  fingerprint: string;
}

/** GET over HTTPS/1.1 on a fresh connection (no keep-alive: each call sees the certificate served now). */
export function httpsGet(
  port: number,
  path: string,
  headers: Record<string, string> = { authorization: basicAuth() },
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const options: RequestOptions & ConnectionOptions = {
      host: '127.0.0.1',
      port,
      path,
      headers,
      rejectUnauthorized: false,
      agent: false,
      ALPNProtocols: ['http/1.1'],
    };
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const socket = res.socket as import('node:tls').TLSSocket;
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          alpn: socket.alpnProtocol,
          fingerprint: socket.getPeerCertificate().fingerprint256 ?? '',
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** GET over HTTP/2, offering only h2 in ALPN. */
export function h2Get(
  port: number,
  path: string,
  headers: Record<string, string> = { authorization: basicAuth() },
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const session = connectH2(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on('error', reject);
    const stream = session.request({ ':path': path, ...headers });
    let status = 0;
    stream.on('response', (h) => (status = Number(h[':status'])));
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('end', () => {
      const socket = session.socket as import('node:tls').TLSSocket;
      const answer = {
        status,
        body: Buffer.concat(chunks).toString(),
        alpn: socket.alpnProtocol,
        fingerprint: socket.getPeerCertificate().fingerprint256 ?? '',
      };
      session.close();
      resolve(answer);
    });
    stream.end();
  });
}

/** The certificate a new TLS handshake on `port` is given. */
export function servedCertificate(port: number): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connectTls(
      { host: '127.0.0.1', port, rejectUnauthorized: false, servername: 'localhost' },
      () => {
        const cert = socket.getPeerCertificate();
        socket.destroy();
        resolve(cert);
      },
    );
    socket.on('error', reject);
  });
}

/** Resolves true once a TLS connection can be made to `port`, false when it is refused. */
export function tlsAnswers(port: number): Promise<boolean> {
  return servedCertificate(port).then(
    () => true,
    () => false,
  );
}
