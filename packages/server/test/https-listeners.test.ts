import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSigned } from '../src/tls/self-signed.js';
import { basicAuth, freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { h2Get, httpsGet, servedCertificate, tlsAnswers } from './https-helpers.js';
import { modifyConfig } from './media-helpers.js';

const status = async (server: RunningServer): Promise<Record<string, string>> => {
  const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
    stats: { status: Record<string, string> };
  };
  return config.stats.status;
};

/** Issue 19: `https` ports serve what `http` serves, over TLS, with the certificate beside the config. */
describe('HTTPS listeners', () => {
  let server: RunningServer;
  let https: number;
  let stalled: Promise<number>;

  beforeAll(async () => {
    https = await freePort();
    server = await startServer({
      config:
        `${minimalConfig}view_auth viewer view-pass-1;\nhttps ${https};\n` +
        `stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n  segment_duration 1;\n}\n`,
    });
    await waitFor(() => tlsAnswers(https));
    // A client that starts a handshake and never finishes it: dropped at the handshake timeout (10 s),
    // checked by the last test so the wait overlaps the others.
    stalled = new Promise((resolve) => {
      const started = Date.now();
      const socket = connect(https, '127.0.0.1', () => socket.write(Buffer.from([0x16, 0x03, 0x01])));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Date.now() - started));
    });
  });
  afterAll(() => server.cleanup());

  it('serves the console, the API, the events websocket and HLS playback over TLS with a self-signed certificate', async () => {
    expect(server.output()).toContain(`Console: https://localhost:${https}/admin`);
    expect(server.output()).toMatch(/made a self-signed one for .* in .*server\.crt/);
    const page = await httpsGet(https, '/admin/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root"');
    expect(page.alpn).toBe('http/1.1');

    const info = await httpsGet(https, '/flussonic/api/server');
    expect(info.status).toBe(200);
    const certificate = (JSON.parse(info.body) as { certificate: Record<string, unknown> }).certificate;
    expect(certificate).toMatchObject({ self_signed: true, file: join(server.dir, 'tls', 'server.crt') });
    expect(certificate.domains).toEqual(expect.arrayContaining(['localhost', '127.0.0.1']));
    expect(JSON.stringify(certificate)).not.toMatch(/PRIVATE KEY/);
    expect((await httpsGet(https, '/flussonic/api/server', {})).status).toBe(401);
    // Public facts: a view-only login sees the same certificate.
    const viewer = await httpsGet(https, '/flussonic/api/server', {
      authorization: basicAuth('viewer', 'view-pass-1'),
    });
    expect(JSON.parse(viewer.body)).toMatchObject({ certificate });

    const socket = new WebSocket(`wss://127.0.0.1:${https}/flussonic/api/events`, {
      headers: { authorization: basicAuth() },
      rejectUnauthorized: false,
    });
    const current = new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.on('message', (data) => resolve(JSON.parse(data.toString()) as Record<string, unknown>));
      socket.on('error', reject);
    });
    socket.on('open', () => socket.send('read_config'));
    expect((await current).event).toBe('current_config');
    socket.close();

    const playlist = await waitFor(async () => {
      const answer = await httpsGet(https, '/demo/video.m3u8', {});
      return answer.status === 200 && answer.body.includes('.ts') ? answer.body : undefined;
    }, 30_000);
    expect(playlist).toContain('#EXTM3U');
  });

  it('speaks HTTP/2 to a client that offers h2, and playback works over it', async () => {
    const info = await h2Get(https, '/flussonic/api/server');
    expect(info).toMatchObject({ status: 200, alpn: 'h2' });
    expect(JSON.parse(info.body)).toMatchObject({ product: 'sluice' });
    const playlist = await h2Get(https, '/demo/video.m3u8', {});
    expect(playlist.status).toBe(200);
    expect(playlist.body).toContain('#EXTM3U');
  });

  it('opens and closes HTTPS ports live when the config changes', async () => {
    const added = await freePort();
    await modifyConfig(server, { https: [https, added] });
    await waitFor(() => tlsAnswers(added));
    expect((await httpsGet(added, '/flussonic/api/server')).status).toBe(200);
    await modifyConfig(server, { https: [https] });
    await waitFor(async () => !(await tlsAnswers(added)));
    expect(await tlsAnswers(https)).toBe(true);
  });

  it('serves a replaced certificate to new connections without a restart, and refuses a mismatched pair', async () => {
    const before = await servedCertificate(https);
    const next = makeSelfSigned('replaced.example');
    const fingerprint = new X509Certificate(next.certPem).fingerprint256;
    await writeFile(join(server.dir, 'tls', 'server.key'), next.keyPem);
    await writeFile(join(server.dir, 'tls', 'server.crt'), next.certPem);
    await waitFor(async () => (await servedCertificate(https)).fingerprint256 === fingerprint);
    expect(fingerprint).not.toBe(before.fingerprint256);
    const info = JSON.parse((await httpsGet(https, '/flussonic/api/server')).body) as {
      certificate: { subject: string };
    };
    expect(info.certificate.subject).toBe('CN=replaced.example');

    // Another certificate beside that key: refused with a header notice naming why; the last good one serves on.
    await writeFile(join(server.dir, 'tls', 'server.crt'), makeSelfSigned('wrong.example').certPem);
    const notice = await waitFor(async () => (await status(server)).error_certificate);
    expect(notice).toContain('the private key does not match the certificate');
    expect((await servedCertificate(https)).fingerprint256).toBe(fingerprint);
    expect(server.output()).toContain('TLS certificate refused');
  });

  it('drops a TLS handshake that does not finish in time', async () => {
    const closedAfterMs = await stalled;
    expect(closedAfterMs).toBeGreaterThan(9_000);
    expect(closedAfterMs).toBeLessThan(30_000);
  }, 40_000);
});
