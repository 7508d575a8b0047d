// Console load over the wire, in headless Chromium: time to usable and bytes transferred for the
// media list (its rows rendered) and a stream page (its tabs), cold (a fresh browser context, empty
// cache) and warm (the same page loaded again in that context). Measured against the server as it
// is (precompressed brotli, hashed assets cached a year) and, in the same run, against the
// reference "before": the same server behind bench/lib/uncompressed-proxy.mjs, which asks for the
// console's files uncompressed and gives them the old `public, max-age=0` (revalidate every load).
// The loopback has no bandwidth limit, so times show parsing and rendering more than the transfer;
// a second set of times is taken at a throttled 10 Mbit/s, 20 ms link (CDP network emulation).
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { webIsStale } from '../scripts/stale.mjs';
import { startUncompressedProxy } from './lib/uncompressed-proxy.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STREAMS = 50;
const RUNS = 5;
const ADMIN = { login: 'admin', password: 'bench-pw' };
/** A modest office or mobile link: 10 Mbit/s down, 5 up, 20 ms latency. */
const LINK = {
  offline: false,
  latency: 20,
  downloadThroughput: (10e6 / 8) | 0,
  uploadThroughput: (5e6 / 8) | 0,
};

if (webIsStale(root))
  spawnSync('npm', ['run', 'build', '-w', 'packages/web'], { cwd: root, stdio: 'inherit' });

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

async function startServer() {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'sluice-console-load-'));
  const configPath = join(dir, 'sluice.conf');
  let text = `http ${port};\nedit_auth ${ADMIN.login} ${ADMIN.password};\n`;
  for (let i = 0; i < STREAMS; i++) text += `\nstream cam${i} {\n  url udp://239.0.0.${i + 1}:1234;\n}\n`;
  await writeFile(configPath, text);
  // A copy of the build: a build started meanwhile would replace the files under the server.
  const consoleDir = join(dir, 'console');
  await cp(join(root, 'packages/web/dist'), consoleDir, { recursive: true });
  const args = ['--config', configPath, '--host', '127.0.0.1', '--console-dir', consoleDir];
  const child = spawn(process.execPath, ['packages/server/dist/main.js', ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/flussonic/api/server`).then(
      (r) => r.status === 401 || r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
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
    '--no-first-run',
  ],
});

/** What "usable" means on each page: the list's rows drawn, or the stream's tabs. */
const PAGES = {
  list: { path: '/admin', ready: '[role="table"][aria-label="Streams"] [role="row"][aria-label="cam0"]' },
  stream: { path: '/admin/standalone/cam0', ready: 'nav[aria-label="stream tabs"] a' },
};

/** Loads `page` and returns ms from navigation to usable and the bytes that came over the wire. */
async function loadOnce(tab, base, which) {
  const { path, ready } = PAGES[which];
  await tab.goto(`${base}${path}`, { waitUntil: 'commit' });
  await tab.waitForSelector(ready, { timeout: 120_000 });
  return tab.evaluate(() => {
    const entries = [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource'),
    ];
    return {
      usableMs: performance.now(),
      bytes: entries.reduce((sum, e) => sum + (e.transferSize ?? 0), 0),
    };
  });
}

/** A cold load in a fresh context, then a warm one in the same context. */
async function coldAndWarm(base, which, throttled) {
  const context = await browser.newContext();
  await context.request.post(`${base}/admin/login`, { form: ADMIN });
  await context.addInitScript(
    (login) => localStorage.setItem('sluice.login', login),
    JSON.stringify({ login: ADMIN.login }),
  );
  const tab = await context.newPage();
  if (throttled) {
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', LINK);
  }
  const cold = await loadOnce(tab, base, which);
  const warm = await loadOnce(tab, base, which);
  await context.close();
  return { cold, warm };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer();
const before = await startUncompressedProxy(server.url);
const results = {};
try {
  // Untimed warm-up of each: the browser's first context and the server's first answers are slower.
  for (const base of [server.url, before.url])
    for (const which of Object.keys(PAGES)) await coldAndWarm(base, which, false);
  // Interleaved, so that the machine's load falls on both alike.
  for (const throttled of [false, true])
    for (const which of Object.keys(PAGES))
      for (const [label, base] of [
        ['after', server.url],
        ['before', before.url],
      ]) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await coldAndWarm(base, which, throttled));
        results[`${throttled ? 'link' : 'loopback'} ${which} ${label}`] = {
          coldMs: median(runs.map((r) => r.cold.usableMs)),
          warmMs: median(runs.map((r) => r.warm.usableMs)),
          coldKb: median(runs.map((r) => r.cold.bytes)) / 1024,
          warmKb: median(runs.map((r) => r.warm.bytes)) / 1024,
        };
      }
} finally {
  await browser.close();
  await before.close();
  await server.stop();
}

const cell = (r) =>
  `cold ${r.coldMs.toFixed(0).padStart(5)} ms ${r.coldKb.toFixed(0).padStart(5)} KiB | warm ${r.warmMs.toFixed(0).padStart(5)} ms ${r.warmKb.toFixed(1).padStart(6)} KiB`;
console.log(`console load, headless Chromium, median of ${RUNS}; ${STREAMS} streams in the config`);
console.log(
  'time: navigation start to usable; KiB: transferred (headers and bodies, the events websocket not counted)',
);
for (const [key, r] of Object.entries(results)) console.log(`${key.padEnd(24)} ${cell(r)}`);
