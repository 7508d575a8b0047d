import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_VARIABLE, ownerMark } from '../src/engine/ffmpeg/leftovers.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';

const serverMain = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

/** Pids of the processes whose environment carries `mark` (a server's ffmpeg children). */
async function childrenMarked(mark: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    if (`\0${environ}\0`.includes(`\0${mark}\0`)) pids.push(Number(entry));
  }
  return pids.sort();
}

/** Runs a second server on `configPath` to its exit (15 s at most): its status and what it printed. */
function runSecond(configPath: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [serverMain, '--config', configPath, '--host', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // A second server that does start (the bug) is stopped, so a failing run leaves no process.
    const deadline = setTimeout(() => child.kill('SIGTERM'), 15_000);
    child.on('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code, output });
    });
  });
}

/**
 * Issue 13 (Low): a second server on the same config killed the first one's ffmpeg processes (as
 * leftovers of a dead run). The second now exits at once with a message and status 3, and the
 * first one's streams keep running.
 */
describe('one server per config', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
  });
  afterAll(() => server?.cleanup());

  it('refuses a second server on the same config before it touches the first one’s ffmpeg', async () => {
    const mark = `${OWNER_VARIABLE}=${ownerMark(server.configPath)}`;
    const ffmpegs = await childrenMarked(mark);
    expect(ffmpegs.length).toBeGreaterThan(0);
    const second = await runSecond(server.configPath);
    expect(second.code).toBe(3);
    expect(second.output).toContain(
      `another Sluice server (pid ${server.process.pid}) is running with ${server.configPath}`,
    );
    // Every ffmpeg of the first server is the same process as before, and the stream still runs.
    const after = await childrenMarked(mark);
    for (const pid of ffmpegs) expect(after, `ffmpeg pid ${pid}`).toContain(pid);
    const before = (await streamStats(server, 'demo')).bytes_in ?? 0;
    await waitFor(async () => ((await streamStats(server, 'demo')).bytes_in ?? 0) > before, 10_000);
    expect(server.process.exitCode).toBeNull();
  });

  it('takes the lock over once the first server is gone, even killed', async () => {
    await server.stop({ kill: true });
    await server.restart();
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
  });
});
