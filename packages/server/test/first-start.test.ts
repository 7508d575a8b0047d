import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from './harness.js';

const serverMain = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

describe('first start without a config', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** Runs the server on a config path that does not exist yet; resolves with what it printed. */
  async function firstStart(): Promise<{ output: string; configPath: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-first-'));
    dirs.push(dir);
    const configPath = join(dir, 'data', 'sluice.conf');
    // Port 0 is not allowed in a config; the default port may be busy here, which the server reports and survives.
    const child = spawn(process.execPath, [serverMain, '--config', configPath, '--host', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await waitFor(() => output.includes('Log in as'), 15_000);
    } finally {
      child.kill('SIGKILL');
    }
    return { output, configPath };
  }

  it('writes a default config with a random admin password, printed once', async () => {
    const first = await firstStart();
    const text = await readFile(first.configPath, 'utf8');
    expect(text).toMatch(/^http 8080;$/m);
    expect(text).toMatch(/^rtmp 1935;$/m);
    const password = /^edit_auth admin (\S+);$/m.exec(text)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(first.output).toContain(`password: ${password}`);
    expect(first.output).toContain('http://localhost:8080/admin');
    expect((await stat(first.configPath)).mode & 0o077).toBe(0);

    const second = await firstStart();
    const other = /^edit_auth admin (\S+);$/m.exec(await readFile(second.configPath, 'utf8'))?.[1];
    expect(other).not.toBe(password);
  });
});
