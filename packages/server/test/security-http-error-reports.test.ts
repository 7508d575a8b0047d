import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { memoryOf } from './security-http-helpers.js';

const VIEW = { login: 'viewer', password: 'view-pw' };
const MB = 1024 * 1024;

describe('console error reports (error/store)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config: `${minimalConfig}view_auth ${VIEW.login} ${VIEW.password};\n` });
  });
  afterAll(() => server.cleanup());

  const store = (body: unknown) =>
    fetch(`${server.url}/flussonic/api/error/store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(VIEW.login, VIEW.password) },
      body: JSON.stringify(body),
    });

  it('keeps what a view-only login posts bounded: 100 MB of reports leave memory and the file capped', async () => {
    const file = join(server.dir, 'error-reports.log');
    const before = await memoryOf(server.process.pid!);
    // 400 posts of a 250 KB report each (just under the call's cap): what crashed the server with
    // ~185 one-MB reports, all kept in memory.
    const big = (i: number) => [{ type: 'error', message: `flood ${i}`, stack: 's'.repeat(250 * 1000) }];
    for (let round = 0; round < 100; round++) {
      const answers = await Promise.all([0, 1, 2, 3].map((k) => store(big(round * 4 + k))));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    }
    const last = await store([{ type: 'error', message: 'TypeError: the last one', page: '/admin/streams' }]);
    expect(last.status).toBe(200);
    // The operator finds the last report in the file beside the config.
    await waitFor(async () => (await readFile(file, 'utf8')).includes('TypeError: the last one'));
    const after = await memoryOf(server.process.pid!);
    const sizes = [(await stat(file)).size, (await stat(`${file}.1`)).size];
    console.log(
      `after 100 MB of error reports: RSS ${(before.rssBytes / MB).toFixed(0)} -> ${(after.rssBytes / MB).toFixed(0)} MB, ` +
        `error-reports.log ${(sizes[0]! / 1024).toFixed(0)} KB, .1 ${(sizes[1]! / 1024).toFixed(0)} KB`,
    );
    expect(after.rssBytes - before.rssBytes).toBeLessThan(60 * MB);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(MB);
    // Each line is one report, cut to 16 KB, saying who sent it.
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(16 * 1024);
    const flood = JSON.parse(lines.at(-2)!) as { from: string; truncated: number; report: string };
    expect(flood.from).toBe('127.0.0.1');
    expect(flood.truncated).toBeGreaterThan(250_000);
    expect(flood.report).toMatch(/^\{"type":"error","message":"flood 399"/);
    expect((await server.api('/flussonic/api/server')).status).toBe(200);
  });
});
