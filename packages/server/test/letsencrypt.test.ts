import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, basicAuth, freePort, type RunningServer, startServer } from './harness.js';
import { type Pebble, makePebbleCa, startPebble } from './pebble.js';

const VIEW = { login: 'viewer', password: 'view-secret-pw' };

/** The issuer CN of the certificate the HTTPS port shows a client asking for `localhost`. */
function servedIssuer(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false },
      () => {
        const issuer = socket.getPeerCertificate().issuer?.CN;
        socket.end();
        resolve(String(issuer));
      },
    );
    socket.on('error', reject);
  });
}

// At the root, as spec 000 §7 lists it and the console calls it (also answered under /flussonic/api).
const order = (server: RunningServer, domains: unknown, authorization = basicAuth()) =>
  server.api('/letsencrypt', {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ domains }),
  });

describe('LetsEncrypt: certificates from an ACME CA (Debian pebble)', () => {
  let server: RunningServer;
  let pebble: Pebble;
  let httpsPort: number;
  let selfSignedIssuer: string;

  beforeAll(async () => {
    const acmePort = await freePort();
    httpsPort = await freePort();
    // pebble needs the server's HTTP port, the server pebble's CA file: the CA first.
    const ca = await makePebbleCa();
    server = await startServer({
      config:
        `http {http};\nhttps ${httpsPort};\nedit_auth ${ADMIN.login} ${ADMIN.password};\n` +
        `view_auth ${VIEW.login} ${VIEW.password};\n` +
        `letsencrypt_directory https://localhost:${acmePort}/dir;\n`,
      env: { SLUICE_ACME_CA_FILE: ca.caFile },
    });
    pebble = await startPebble({ ca, port: acmePort, httpPort: server.port });
    selfSignedIssuer = await servedIssuer(httpsPort);
  });
  afterAll(async () => {
    await server?.cleanup();
    await pebble?.stop();
  });

  it('shows a view-only login the certificate in use and refuses it an order (403)', async () => {
    const viewer = basicAuth(VIEW.login, VIEW.password);
    const status = await server.api('/flussonic/api/letsencrypt', { headers: { authorization: viewer } });
    expect(status.status).toBe(200);
    const body = (await status.json()) as {
      cert: { self_signed: boolean };
      files: { cert: string; key: string };
    };
    expect(body.cert.self_signed).toBe(true);
    const atRoot = await server.api('/letsencrypt', { headers: { authorization: viewer } });
    expect(await atRoot.json()).toEqual(body);
    expect(body.files.key).toMatch(/server\.key$/);
    expect(JSON.stringify(body)).not.toContain('PRIVATE KEY');
    expect((await order(server, ['localhost'], viewer)).status).toBe(403);
  });

  it("refuses names it can't order (400) and answers no challenge outside an order (404)", async () => {
    const ip = await order(server, ['192.0.2.1']);
    expect(ip.status).toBe(400);
    expect(((await ip.json()) as { error: string }).error).toMatch(/IP address/);
    expect((await order(server, [])).status).toBe(400);
    expect((await order(server, ['bad name'])).status).toBe(400);
    const challenge = await fetch(`${server.url}/.well-known/acme-challenge/some-token`);
    expect(challenge.status).toBe(404);
  });

  it("keeps the certificate in use when the order fails, and answers the CA's reason", async () => {
    // .invalid never resolves (RFC 6761): the CA can't reach the challenge and refuses the order.
    const failed = await order(server, ['sluice-test.invalid']);
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { error: string }).error).toContain('sluice-test.invalid');
    expect(await servedIssuer(httpsPort)).toBe(selfSignedIssuer);
    const status = (await (await server.api('/flussonic/api/letsencrypt')).json()) as {
      cert: { self_signed: boolean };
    };
    expect(status.cert.self_signed).toBe(true);
  });

  it('obtains a certificate and serves it on the HTTPS port without a restart; one order at a time', async () => {
    const pid = server.process.pid;
    // Two at once: the second is refused while the first runs.
    const answers = await Promise.all([order(server, ['localhost']), order(server, ['localhost'])]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const issued = answers.find((a) => a.status === 200)!;
    const body = (await issued.json()) as {
      cert: { issuer: string; domains: string[]; self_signed: boolean };
    };
    expect(body.cert.issuer).toMatch(/Pebble Intermediate CA/);
    expect(body.cert.domains).toEqual(['localhost']);
    expect(body.cert.self_signed).toBe(false);
    expect(await servedIssuer(httpsPort)).toMatch(/^Pebble Intermediate CA/);
    expect(server.process.pid).toBe(pid);
    // The ACME account key and the remembered names sit beside the certificate, readable by the owner only.
    const tlsDir = join(server.dir, 'tls');
    expect((await stat(join(tlsDir, 'letsencrypt-account.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(tlsDir, 'letsencrypt.json'))).mode & 0o777).toBe(0o600);
  });
});
