import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';

const SECRET = 'the-secret-outside-the-folder';

/** A GET with the path sent exactly as written (fetch would resolve `..` before sending). */
function rawGet(
  port: number,
  path: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web scripts (web_script PREFIX PATH k=v)', () => {
  let server: RunningServer;
  let dir: string;
  const site = () => join(dir, 'site');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-webscript-'));
    await mkdir(join(dir, 'site', 'js'), { recursive: true });
    await writeFile(join(dir, 'site', 'index.html'), '<h1>The app</h1>');
    await writeFile(join(dir, 'site', 'js', 'app.js'), 'console.log("app")');
    await writeFile(join(dir, 'secret.txt'), SECRET);
    await symlink(join(dir, 'secret.txt'), join(dir, 'site', 'link.txt'));
    server = await startServer({
      dir,
      config: `${minimalConfig}stream cam { url test://; }\nweb_script app ${join(dir, 'site')} theme=dark api_base=/flussonic/api;\n`,
    });
  });
  afterAll(() => server.cleanup());

  const status = async () =>
    (
      (await (await server.api('/flussonic/api/read_config')).json()) as {
        stats: { status: Record<string, string> };
      }
    ).stats.status;
  const modify = (delta: unknown) =>
    server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(delta),
    });

  it('serves the folder at its prefix, and extra as web_script.json', async () => {
    const slash = await rawGet(server.port, '/app?x=1');
    expect(slash.status).toBe(301);
    expect(slash.headers.location).toBe('/app/?x=1');
    const index = await rawGet(server.port, '/app/');
    expect(index).toMatchObject({ status: 200, body: '<h1>The app</h1>' });
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    const js = await rawGet(server.port, '/app/js/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const extra = await rawGet(server.port, '/app/web_script.json');
    expect(JSON.parse(extra.body)).toEqual({
      prefix: 'app',
      extra: { theme: 'dark', api_base: '/flussonic/api' },
    });
    expect((await rawGet(server.port, '/app/none.html')).status).toBe(404);
  });

  it('never leaves the folder: .., encoded forms, backslashes, NUL and symlinks', async () => {
    for (const path of [
      '/app/../secret.txt',
      '/app/%2e%2e/secret.txt',
      '/app/..%2fsecret.txt',
      '/app/%2e%2e%2fsecret.txt',
      '/app/js/%2E%2E/%2E%2E/secret.txt',
      '/app/..%5csecret.txt',
      '/app/js%00/../../secret.txt',
      '/app/%252e%252e/secret.txt',
      '/app/link.txt',
    ]) {
      const answer = await rawGet(server.port, path);
      expect([400, 404], path).toContain(answer.status);
      expect(answer.body, path).not.toContain(SECRET);
    }
    // The API and the streams are not the web script's: still answered by the server.
    expect((await server.api('/flussonic/api/server')).status).toBe(200);
  });

  it('refuses a prefix that would shadow the console, the API or a stream, saying why', async () => {
    const admin = await modify({ web_scripts: { admin: { prefix: 'admin', path: site() } } });
    expect(admin.status).toBe(400);
    expect(await admin.text()).toContain('/admin is the server');
    const cam = await modify({ web_scripts: { cam: { prefix: 'cam', path: site() } } });
    expect(cam.status).toBe(400);
    expect(await cam.text()).toContain('would shadow (or be shadowed by) stream \\"cam\\"');
  });

  it('a missing folder is a header notice until it exists', async () => {
    const missing = join(dir, 'later');
    expect((await modify({ web_scripts: { later: { prefix: 'later', path: missing } } })).status).toBe(200);
    const notice = await waitFor(async () => (await status()).error_web_script_later);
    expect(notice).toBe(
      `Web script /later: folder ${missing} is missing or not a folder; it answers 404 until it exists`,
    );
    expect((await rawGet(server.port, '/later/')).status).toBe(404);
    await mkdir(missing);
    await writeFile(join(missing, 'index.html'), 'later');
    await waitFor(async () => (await status()).error_web_script_later === undefined);
    expect((await rawGet(server.port, '/later/')).body).toBe('later');
    await rm(missing, { recursive: true });
  });
});
