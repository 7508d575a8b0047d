import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Served {
  url: string;
  close: () => Promise<void>;
}

const listen = async (server: Server, scheme: string): Promise<Served> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/**
 * A page on an origin of its own (another port) that loads Flussonic's WebRTC library (its built
 * bundle, unchanged: window.FlussonicWebRTC), as a customer's site embeds it.
 */
export function serveFlussonicPage(): Promise<Served> {
  const bundle = readFileSync(
    createRequire(import.meta.url).resolve('@flussonic/flussonic-webrtc-player/dist/index.js'),
  );
  const server = createServer((req, res) => {
    if (req.url === '/flussonic-webrtc.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(bundle);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      '<!doctype html><video id="v" muted autoplay playsinline></video><script src="/flussonic-webrtc.js"></script>',
    );
  });
  return listen(server, 'http');
}

/**
 * HTTPS in front of the server, as an operator puts TLS before it: the Publisher always calls
 * https://…/whip whatever URL it is given. A self-signed certificate (Chromium is started with
 * --ignore-certificate-errors); every request is passed on to `target` as it came.
 */
export function serveTlsFront(target: string): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-whip-tls-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  rmSync(dir, { recursive: true, force: true });
  const to = new URL(target);
  const server = createTlsServer(tls, (req, res) => {
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return listen(server as unknown as Server, 'https');
}
