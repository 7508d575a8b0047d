import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { receiveUpload } from './file-api-upload.js';

/**
 * receiveUpload behind a real HTTP server of the test's own: what is kept in the directory after
 * whole, stalled, malformed and refused uploads.
 */
describe('receiveUpload', () => {
  let dir: string;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const declared = new Map([['declared.mp4', 4]]);
      receiveUpload(req, { dir, declared, idleTimeoutMs: 300 }).then(
        (files) => res.writeHead(200).end(JSON.stringify({ files })),
        (error: Error) =>
          res
            .writeHead(error instanceof HttpError ? error.statusCode : 500, { connection: 'close' })
            .end(JSON.stringify({ error: error.message })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = await mkdtemp(join(tmpdir(), 'sluice-upload-unit-'));
  });

  const boundary = 'b0undary';
  const part = (name: string, data: string | Buffer) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`),
      Buffer.from(data),
      Buffer.from('\r\n'),
    ]);
  const end = Buffer.from(`--${boundary}--\r\n`);

  /** Sends `pieces` (the body so far; `complete` says whether it is all) and resolves with the answer. */
  const send = (pieces: Buffer[], complete = true) =>
    new Promise<{ status: number; error?: string }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ...(JSON.parse(text) as { error?: string }) }),
        );
      });
      req.on('error', reject);
      for (const piece of pieces) req.write(piece);
      if (complete) req.end();
    });

  it('keeps every file of a whole upload under its name, and no temp file', async () => {
    const big = randomBytes(2 * 1024 * 1024);
    expect((await send([part('one.mp4', big), part('two.mp4', 'two'), end])).status).toBe(200);
    expect((await readdir(dir)).sort()).toEqual(['one.mp4', 'two.mp4']);
    expect((await readFile(join(dir, 'one.mp4'))).equals(big)).toBe(true);
  });

  it('drops a stalled upload (408) and its partial file', async () => {
    const answer = await send(
      [part('whole.mp4', 'whole'), part('stalled.mp4', randomBytes(1024 * 1024))],
      false,
    );
    expect(answer).toMatchObject({
      status: 408,
      error: 'the upload sent nothing for 0.3 s: nothing was kept',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('keeps nothing when a later part has a bad name or the body is malformed', async () => {
    const badName = await send([part('first.mp4', randomBytes(64 * 1024)), part('../escape.mp4', 'x'), end]);
    expect(badName.status).toBe(400);
    expect(badName.error).toBe("the name '../escape.mp4' holds a '/': nothing was written");
    const cut = await send([part('first.mp4', 'x'), Buffer.from(`--${boundary}\r\nContent-Disp`)]);
    expect(cut.status).toBe(400);
    expect(cut.error).toContain('malformed');
    const empty = await send([end]);
    expect(empty).toMatchObject({ status: 400, error: 'the upload carries no file' });
    expect(await readdir(dir)).toEqual([]);
    expect(await readdir(join(dir, '..'))).not.toContain('escape.mp4');
  });

  it('refuses a file larger than declared, and two files of one name', async () => {
    const larger = await send([part('declared.mp4', 'more than four'), end]);
    expect(larger).toMatchObject({
      status: 400,
      error: "file 'declared.mp4' is larger than the 4 bytes X-File-Sizes gave for it",
    });
    const twice = await send([part('same.mp4', 'a'), part('same.mp4', 'b'), end]);
    expect(twice.status).toBe(400);
    expect(await readdir(dir)).toEqual([]);
  });
});
