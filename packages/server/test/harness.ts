import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Starts the real built server (packages/server/dist/main.js) as a child process on ephemeral
 * ports, with a config written to a fresh temp folder. `npm test` builds before running tests.
 */
const serverMain = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

export const ADMIN = { login: 'admin', password: 'test-secret-pw' };
export const basicAuth = (login = ADMIN.login, password = ADMIN.password) =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** A port that was free a moment ago (bound to 0 and released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  port: number;
  url: string;
  dir: string;
  configPath: string;
  process: ChildProcess;
  output: () => string;
  /** Fetches `path` on this server with admin credentials unless `headers.authorization` is given. */
  api: (path: string, init?: RequestInit) => Promise<Response>;
  /** Stops the process (SIGTERM, or SIGKILL with `kill: true`); the temp folder stays until cleanup(). */
  stop: (options?: { kill?: boolean }) => Promise<void>;
  /** Starts the server again on the same folder and port. */
  restart: () => Promise<void>;
  cleanup: () => Promise<void>;
}

/**
 * A stop of a server started here, from the moment it was asked to stop until it answered again
 * (`untilMs`; unset while it is down). A browser logs refused requests and websocket failures
 * about a server a test stopped; the e2e fixture tells those apart from real errors with this.
 */
export interface ServerStop {
  url: string;
  fromMs: number;
  untilMs?: number;
}
const stopListeners = new Set<(stop: ServerStop) => void>();

/** Calls `listener` with each stop of a server of this process from now on; returns the unsubscribe. */
export function onServerStop(listener: (stop: ServerStop) => void): () => void {
  stopListeners.add(listener);
  return () => stopListeners.delete(listener);
}

export interface StartOptions {
  /** Config text; `{http}` is replaced by the chosen port. Defaults to a minimal config with admin credentials. */
  config?: string;
  dir?: string;
  args?: string[];
  env?: Record<string, string>;
}

export const minimalConfig = `http {http};\nedit_auth ${ADMIN.login} ${ADMIN.password};\n`;

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'sluice-test-')));
  const port = await freePort();
  const configPath = join(dir, 'sluice.conf');
  await writeFile(configPath, (options.config ?? minimalConfig).replaceAll('{http}', String(port)));
  let output = '';
  let child!: ChildProcess;

  const launch = async () => {
    child = spawn(
      process.execPath,
      [serverMain, '--config', configPath, '--host', '127.0.0.1', ...(options.args ?? [])],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...options.env },
      },
    );
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    try {
      // A start at load 30-45 took ~20 s; the budget only says how long to wait before failing.
      await waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
        return fetch(`http://127.0.0.1:${port}/flussonic/api/server`).then(
          (r) => r.status === 401 || r.ok,
          () => false,
        );
      }, 60_000);
    } catch (error) {
      // A server that never answered is not left running (and holding ports and ffmpegs) after the file.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      throw error;
    }
  };
  await launch();

  let lastStop: ServerStop | undefined;
  const stop = async ({ kill = false } = {}) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    lastStop = { url: `http://127.0.0.1:${port}`, fromMs: Date.now() };
    for (const listener of stopListeners) listener(lastStop);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(kill ? 'SIGKILL' : 'SIGTERM');
    await exited;
  };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    configPath,
    get process() {
      return child;
    },
    output: () => output,
    api: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', basicAuth());
      return fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers });
    },
    stop,
    restart: async () => {
      await stop();
      await launch();
      if (lastStop) lastStop.untilMs = Date.now();
    },
    cleanup: async () => {
      await stop({ kill: true });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Polls `check` until it returns a truthy value (returned) or `timeoutMs` passes (throws the last error).
 * The default budget holds on a busy machine (`npm run test:loaded`); it costs nothing when the
 * condition comes sooner.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 20_000,
  intervalMs = 50,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
      if (error instanceof Error && error.message.startsWith('server exited')) throw error;
    }
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
