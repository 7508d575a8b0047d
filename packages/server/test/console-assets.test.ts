import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer, waitFor } from './harness.js';

const builtConsole = join(import.meta.dirname, '..', '..', 'web', 'dist');

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it came over the wire, still encoded (fetch would decode it). */
  body: Buffer;
}

function rawGet(url: string, acceptEncoding: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

/** The hashed files index.html loads: /admin/assets/NAME-HASH.js and .css. */
const assetsOf = (html: string) =>
  [...html.matchAll(/\/admin\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);

describe('console assets', () => {
  let server: RunningServer;
  let dir: string;
  let html: string;

  beforeAll(async () => {
    // A copy of the build: another build running meanwhile rewrites packages/web/dist under a server.
    dir = await mkdtemp(join(tmpdir(), 'sluice-console-'));
    html = await waitFor(async () => {
      await rm(join(dir, 'dist'), { recursive: true, force: true });
      await cp(builtConsole, join(dir, 'dist'), { recursive: true });
      const text = await readFile(join(dir, 'dist', 'index.html'), 'utf8');
      const files = [...assetsOf(text), 'index.html'].flatMap((a) => [a, `${a}.br`, `${a}.gz`]);
      await Promise.all(files.map((f) => readFile(join(dir, 'dist', f))));
      return text;
    });
    server = await startServer({ args: ['--console-dir', join(dir, 'dist')] });
  });
  afterAll(async () => {
    await server?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('the build holds a brotli and a gzip copy of every script and stylesheet', () => {
    expect(assetsOf(html).length).toBeGreaterThanOrEqual(2);
  });

  it('sends each asset brotli or gzip encoded as the browser takes it, decoding to the same bytes, cached a year', async () => {
    for (const asset of assetsOf(html)) {
      const plain = await readFile(join(dir, 'dist', asset));
      const type = asset.endsWith('.js') ? /javascript/ : /text\/css/;
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip, deflate', 'gzip'],
      ] as const) {
        const answer = await rawGet(`${server.url}/admin/${asset}`, accept);
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(answer.headers['content-type']).toMatch(type);
        expect(answer.headers['vary']).toMatch(/accept-encoding/i);
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(decode[coding](answer.body).equals(plain)).toBe(true);
        // Text compresses to well under half: what the transport change is for.
        expect(answer.body.length).toBeLessThan(plain.length / 2);
      }
      const identity = await rawGet(`${server.url}/admin/${asset}`, 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body.equals(plain)).toBe(true);
    }
  });

  it('index.html (and any deep link) is compressed too but never cached without asking', async () => {
    const plain = await readFile(join(dir, 'dist', 'index.html'));
    for (const path of ['/admin', '/admin/standalone/demo']) {
      const answer = await rawGet(`${server.url}${path}`, 'br, gzip');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['content-type']).toMatch(/text\/html/);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['vary']).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(answer.body).equals(plain)).toBe(true);
      const gzip = await rawGet(`${server.url}${path}`, 'gzip');
      expect(gunzipSync(gzip.body).equals(plain)).toBe(true);
      const identity = await rawGet(`${server.url}${path}`, '');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body.equals(plain)).toBe(true);
    }
  });
});
