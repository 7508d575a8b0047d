import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, statfs } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, type RunningServer, startServer, waitFor } from './harness.js';
import { memoryOf, sendLargeBody } from './security-http-helpers.js';
import {
  API,
  MB,
  multipart,
  snapshot,
  tempFiles,
  uploadHeaders,
  viewAuth,
  vodConfig,
} from './vod-files-helpers.js';

const GIB = 1024 * MB;

/** `total` bytes of a repeating pattern, 1 MiB at a time, hashed as they are made. */
function* pattern(total: number, hash: ReturnType<typeof createHash>) {
  const block = Buffer.alloc(MB);
  for (let i = 0; i < MB; i++) block[i] = (i * 31 + (i >> 8)) & 0xff;
  for (let sent = 0; sent < total; sent += MB) {
    const piece = Buffer.from(block.subarray(0, Math.min(MB, total - sent)));
    piece.writeUInt32BE(sent / MB, 0);
    hash.update(piece);
    yield piece;
  }
}

async function hashOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('VOD upload: streamed to disk, all or nothing', () => {
  let server: RunningServer;
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sluice-vod-upload-'));
    root = join(base, 'root');
    await mkdir(join(root, 'big'), { recursive: true });
    server = await startServer({ config: vodConfig([root]) });
  });
  afterAll(async () => {
    await server.cleanup();
    await rm(base, { recursive: true, force: true });
  });

  it(
    'takes a 1 GiB file streamed from a generator without holding it in memory',
    { timeout: 600_000 },
    async () => {
      const before = await memoryOf(server.process.pid!);
      const form = multipart(['huge.mp4']);
      const sent = createHash('sha256');
      async function* body() {
        yield form.head('huge.mp4');
        yield* pattern(GIB, sent);
        yield form.tail;
      }
      const started = performance.now();
      const answer = await server.api(`${API}/upload`, {
        method: 'POST',
        headers: uploadHeaders({ subpath: 'big', sizes: `huge.mp4:${GIB}` }, form.contentType),
        body: body() as unknown as BodyInit,
        duplex: 'half',
      } as RequestInit);
      const seconds = (performance.now() - started) / 1000;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ files: [{ name: 'huge.mp4', size: GIB }] });
      const after = await memoryOf(server.process.pid!);
      console.log(
        `1 GiB upload in ${seconds.toFixed(1)} s (${(1024 / seconds).toFixed(0)} MiB/s); server RSS ` +
          `${(before.rssBytes / MB).toFixed(0)} MB before, peak ${(after.peakRssBytes / MB).toFixed(0)} MB`,
      );
      // The peak since the server started, against its size before: nowhere near the file's 1 GiB.
      expect(after.peakRssBytes - before.rssBytes).toBeLessThan(160 * MB);
      const path = join(root, 'big', 'huge.mp4');
      expect((await stat(path)).size).toBe(GIB);
      expect(await hashOf(path)).toBe(sent.digest('hex'));
      expect(await tempFiles(root)).toEqual([]);
      await rm(path);
    },
  );

  it('leaves no file behind when the sender goes away mid-upload', async () => {
    const form = multipart(['cut.mp4']);
    const headers = {
      ...uploadHeaders({ sizes: `cut.mp4:${100 * MB}`, authorization: basicAuth() }, form.contentType),
      'content-length': String(form.head('cut.mp4').length + 100 * MB + form.tail.length),
    };
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: `${API}/upload`,
      headers,
    });
    req.on('error', () => undefined);
    req.write(form.head('cut.mp4'));
    const chunk = Buffer.alloc(MB, 1);
    for (let i = 0; i < 8; i++) req.write(chunk);
    // The temp file is there and growing while the body comes in …
    await waitFor(async () => (await tempFiles(root)).length === 1);
    req.destroy();
    // … and gone, with no cut.mp4 made, once the sender is gone.
    await waitFor(async () => (await tempFiles(root)).length === 0);
    expect(await snapshot(root)).not.toHaveProperty('cut.mp4');
    // The same upload sent whole works.
    const whole = await server.api(`${API}/upload`, {
      method: 'POST',
      headers: uploadHeaders({ sizes: 'cut.mp4:3' }, form.contentType),
      body: Buffer.concat([form.head('cut.mp4'), Buffer.from('abc'), form.tail]),
    });
    expect(whole.status).toBe(200);
    expect((await snapshot(root))['cut.mp4']).toBe(`file ${Buffer.from('abc').toString('base64')}`);
  });

  it('refuses (507) sizes beyond the free disk space before reading the body, writing nothing', async () => {
    const before = await snapshot(base);
    const fs = await statfs(root);
    const free = fs.bavail * fs.bsize;
    const form = multipart(['a.mp4', 'b.mp4']);
    const answer = await sendLargeBody(server.port, `${API}/upload`, {
      headers: uploadHeaders(
        {
          sizes: `a.mp4:${Math.floor(free / 2)}|b.mp4:${Math.ceil(free / 2) + 1}`,
          authorization: basicAuth(),
        },
        form.contentType,
      ),
      totalBytes: 2 * GIB,
      chunk: Buffer.alloc(MB, 2),
      headersAloneMs: 1000,
    });
    expect(answer.status).toBe(507);
    expect(JSON.parse(answer.text).error).toMatch(
      /^the upload is \d+ bytes but the disk of .* has \d+ bytes free/,
    );
    expect(answer.bodyBytesSent).toBe(0);
    expect(await snapshot(base)).toEqual(before);
  });

  it('refuses callers without credentials or edit rights before reading the body', async () => {
    const before = await memoryOf(server.process.pid!);
    const form = multipart(['x.mp4']);
    for (const [authorization, status] of [
      [undefined, 401],
      [viewAuth(), 403],
    ] as const) {
      const answer = await sendLargeBody(server.port, `${API}/upload`, {
        headers: uploadHeaders(
          { sizes: 'x.mp4:1', ...(authorization ? { authorization } : {}) },
          form.contentType,
        ),
        totalBytes: 2 * GIB,
        chunk: Buffer.alloc(MB, 3),
        headersAloneMs: 1000,
      });
      expect(answer.status).toBe(status);
      expect(answer.bodyBytesSent).toBe(0);
    }
    expect((await memoryOf(server.process.pid!)).peakRssBytes - before.peakRssBytes).toBeLessThan(40 * MB);
    expect(await tempFiles(root)).toEqual([]);
  });
});
