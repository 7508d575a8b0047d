// The console with a 20,000-stream config (bench/console-load.mjs measures the transport), in headless Chromium: time from navigation to a usable
// console (the Settings form filled from the live config) and the JS heap, beside the same figures
// for an empty config measured in the same run. Also the page's script time per second while idle
// (the 1 s delta poll), which shows what each live delta costs the browser.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { webIsStale } from '../scripts/stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STREAMS = 20_000;
const RUNS = 3;
const IDLE_MS = 5000;
const ADMIN = { login: 'admin', password: 'bench-pw' };

if (webIsStale(root))
  spawnSync('npm', ['run', 'build', '-w', 'packages/web'], { cwd: root, stdio: 'inherit' });

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

/** Starts the built server on a config with `streams` on-demand streams (nothing runs until played). */
async function startServer(streams) {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'sluice-console-bench-'));
  const configPath = join(dir, 'sluice.conf');
  let text = `http ${port};\nedit_auth ${ADMIN.login} ${ADMIN.password};\n`;
  for (let i = 0; i < streams; i++) {
    text += `\nstream cam${i} {\n  url udp://239.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1234;\n  title "Camera ${i}";\n}\n`;
  }
  await writeFile(configPath, text);
  const child = spawn(
    process.execPath,
    ['packages/server/dist/main.js', '--config', configPath, '--host', '127.0.0.1'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/flussonic/api/server`).then(
      (r) => r.status === 401 || r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const auth = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
  const configBytes = (
    await (await fetch(`${url}/flussonic/api/read_config`, { headers: { authorization: auth } })).text()
  ).length;
  return {
    url,
    configBytes,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

/** One cold load: a fresh context, saved credentials, navigation to the Settings tab. */
async function load(url) {
  const context = await browser.newContext();
  // Logged in as the login form does: the session cookie in the context, the login name stored.
  await context.request.post(`${url}/admin/login`, { form: ADMIN });
  await context.addInitScript(
    (login) => localStorage.setItem('sluice.login', login),
    JSON.stringify({ login: ADMIN.login }),
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${url}/admin/config`, { waitUntil: 'commit' });
  // Usable: the header status is up and the form shows the live config's HTTP port.
  await page.waitForFunction(
    // Runs in the page: `globalThis` is the window there.
    () => {
      const doc = globalThis.document;
      return (
        doc.querySelector('input[aria-label="HTTP ports"]')?.value &&
        doc.querySelector('[aria-label="server status"]')
      );
    },
    undefined,
    { polling: 'raf', timeout: 120_000 },
  );
  const usableMs = await page.evaluate(() => performance.now());
  const scriptsMs = await page.evaluate(
    () => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
  );
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');

  const scriptTime = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ScriptDuration').value * 1000;
  const before = await scriptTime();
  await page.waitForTimeout(IDLE_MS);
  const idleScriptMsPerS = ((await scriptTime()) - before) / (IDLE_MS / 1000);
  await context.close();
  return { usableMs, scriptsMs, heapUsedMb: heap.usedSize / 1048576, idleScriptMsPerS };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(streams) {
  const server = await startServer(streams);
  try {
    await load(server.url); // warm-up: the server's first read_config and the browser's caches
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load(server.url));
    return {
      configKb: server.configBytes / 1024,
      usableMs: median(runs.map((r) => r.usableMs)),
      scriptsMs: median(runs.map((r) => r.scriptsMs)),
      heapUsedMb: median(runs.map((r) => r.heapUsedMb)),
      idleScriptMsPerS: median(runs.map((r) => r.idleScriptMsPerS)),
    };
  } finally {
    await server.stop();
  }
}

const empty = await measure(0);
const large = await measure(STREAMS);
await browser.close();

const line = (label, r) =>
  `${label.padEnd(22)} read_config ${r.configKb.toFixed(0).padStart(6)} KiB | DOMContentLoaded ${r.scriptsMs.toFixed(0).padStart(5)} ms | usable ${r.usableMs.toFixed(0).padStart(5)} ms | JS heap ${r.heapUsedMb.toFixed(1).padStart(6)} MB | idle script ${r.idleScriptMsPerS.toFixed(1).padStart(5)} ms/s`;
console.log(`console load in headless Chromium, median of ${RUNS} cold loads (after one warm-up)`);
console.log(line(`${STREAMS} streams`, large));
console.log(line('reference, 0 streams', empty));
