import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer, waitFor } from './harness.js';

// A real full and a real read-only disk: a small tmpfs mounted for this file. Mounting needs root
// (chmod would not stop root from writing); elsewhere this is skipped and the mapping is covered by
// src/http/errors.test.ts.
const dir = mkdtempSync(join(tmpdir(), 'sluice-disk-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=700', 'tmpfs', dir]).status === 0;
if (!mounted) rmdirSync(dir);
const run = (...args: string[]) => {
  const result = spawnSync(args[0]!, args.slice(1));
  if (result.status !== 0) throw new Error(`${args.join(' ')}: ${result.stderr.toString()}`);
};

describe.skipIf(!mounted)('config writes on a full or read-only disk', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dir });
  });
  afterAll(async () => {
    await server?.stop({ kill: true });
    spawnSync('umount', [dir]);
    rmdirSync(dir);
  });

  const addStream = (name: string) =>
    server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streams: { [name]: { urls: ['udp://239.0.0.1:1234'] } } }),
    });

  it('answers 507 "the disk is full", logs the failure with its stack, and keeps the config', async () => {
    const before = await readFile(server.configPath, 'utf8');
    const filler = join(dir, 'filler');
    // Fill the disk to the last block.
    await writeFile(filler, Buffer.alloc(4 * 1024 * 1024)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOSPC') throw error;
    });
    const answer = await addStream('full');
    expect(answer.status).toBe(507);
    expect(await answer.json()).toEqual({ error: 'the disk is full: the config was not saved' });
    await waitFor(() =>
      /POST \/flussonic\/api\/modify_config answered 507: Error: ENOSPC[^\n]*\n\s+at /.test(server.output()),
    );
    expect(await readFile(server.configPath, 'utf8')).toBe(before);
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as { streams?: object };
    expect(config.streams ?? {}).toEqual({});
    await rm(filler);
    expect((await addStream('after')).status).toBe(200);
  });

  it('names the read-only folder (500) and logs it', async () => {
    // The config's folder itself can't be remounted read-only while the server holds files open
    // in it for writing; its history folder, where every save first keeps the previous version,
    // can: a read-only tmpfs over it.
    const history = join(dir, 'history');
    await mkdir(history, { recursive: true });
    run('mount', '-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', history);
    try {
      const answer = await addStream('readonly');
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({
        error: `the folder (${history}) is on a read-only disk: the config was not saved`,
      });
      await waitFor(() => /modify_config answered 500: Error: EROFS/.test(server.output()));
    } finally {
      run('umount', history);
    }
    expect((await addStream('writable-again')).status).toBe(200);
  });
});
