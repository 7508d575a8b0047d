import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './harness.js';
import { answersApi, logLine, logLines } from './security-rtmp-helpers.js';

// Loaded into the server process before its main module: on SIGUSR2 it throws where nothing
// catches and rejects a promise nobody awaits, as a bug in any handler would.
const planted = `
process.on('SIGUSR2', () => {
  setImmediate(() => { throw new Error('planted\\n2030-01-01T00:00:00.000Z error FORGED'); });
  Promise.reject(new Error('planted rejection'));
});
`;

/** The process-wide last resort (issue 13, Critical): an uncaught error is logged, the server keeps serving. */
describe('errors nothing caught', () => {
  let server: RunningServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-plant-'));
    await writeFile(join(dir, 'plant.mjs'), planted);
    server = await startServer({ env: { NODE_OPTIONS: `--import=${join(dir, 'plant.mjs')}` } });
  });
  afterAll(async () => {
    await server?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('are logged with their stack, and the server keeps answering', async () => {
    server.process.kill('SIGUSR2');
    const uncaught = await logLine(server, /uncaught exception, the server keeps running/);
    expect(uncaught).toContain('"planted\\n2030-01-01T00:00:00.000Z error FORGED"');
    await logLine(server, /unhandled promise rejection, the server keeps running: "planted rejection"/);
    expect(logLines(server, /^\s+at /).length).toBeGreaterThan(0);
    expect(logLines(server, /^2030-01-01/)).toEqual([]);
    expect(await answersApi(server)).toBe(true);
  });
});
