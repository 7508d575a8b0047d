// Delivery: one HLS segment of a live 2 Mbit/s stream fetched by 200 concurrent clients (wrk),
// from Sluice's memory and, in the same run, from nginx serving the same bytes as a static file.
// Usage: npm run bench -- media-delivery [SECONDS=10] [CONNECTIONS=200] [ROUNDS=3]
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clipBytesPerSecond,
  cpuSeconds,
  freePort,
  makeClip,
  sleep,
  startNginx,
  startSluice,
  stop,
} from './lib/media.mjs';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = Number(process.argv[3] ?? 200);
const ROUNDS = Number(process.argv[4] ?? 3);
const clip = makeClip(20);

/** Runs wrk on `url`; returns requests/s, transfer and latency percentiles as wrk prints them. */
function wrk(url) {
  const result = spawnSync('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', url], {
    encoding: 'utf8',
  });
  const out = result.stdout;
  const value = (re) => re.exec(out)?.[1] ?? '?';
  return {
    rps: Number(value(/Requests\/sec:\s+([\d.]+)/)),
    transfer: value(/Transfer\/sec:\s+(\S+)/),
    p50: value(/\s50%\s+(\S+)/),
    p99: value(/\s99%\s+(\S+)/),
    errors: /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 'none',
  };
}

// ---- Sluice: a live stream; its segments stay in memory for the whole run (segment_count 30).
const udpPort = await freePort();
const sluice = await startSluice(
  `http {http};\nedit_auth admin bench-pw;\nstream live {\n  url udp://127.0.0.1:${udpPort};\n  static true;\n  segment_count 30;\n}\n`,
);
const sender = spawn(
  process.execPath,
  ['bench/lib/udp-sender.mjs', clip, String(udpPort), '1', String(clipBytesPerSecond(clip))],
  { stdio: 'ignore' },
);
let uri;
for (let t = 0; t < 30 && !uri; t++) {
  await sleep(1000);
  const playlist = await fetch(`${sluice.base}/live/video.m3u8`).then((r) => (r.ok ? r.text() : ''));
  const uris = playlist.split('\n').filter((l) => l.endsWith('.ts'));
  if (uris.length >= 2) uri = uris.at(-1);
}
if (!uri) throw new Error('the stream made no segments');
const segmentUrl = `${sluice.base}/live/${uri}`;
const segment = Buffer.from(await (await fetch(segmentUrl)).arrayBuffer());
// ---- nginx: the same bytes as a static file (sendfile, open file cache).
const httpPort = await freePort();
const root = await mkdtemp(join(tmpdir(), 'sluice-bench-www-'));
await writeFile(join(root, 'segment.ts'), segment, { mode: 0o644 });
// nginx's workers run as an unprivileged user: the folder must be readable to them.
await chmod(root, 0o755);
const nginx = await startNginx(
  'http { sendfile on; tcp_nopush on; access_log off; open_file_cache max=100; ' +
    `server { listen 127.0.0.1:${httpPort}; location / { root ${root}; } } }`,
);
const nginxPids = () => [nginx.child.pid, ...nginx.workers()];

// Rounds alternate between the two, so a load elsewhere on the machine falls on both alike.
const runs = { sluice: [], nginx: [] };
for (let round = 0; round < ROUNDS; round++) {
  const cpu0 = cpuSeconds(sluice.child.pid);
  runs.sluice.push({ ...wrk(segmentUrl), cpu: 0 });
  runs.sluice.at(-1).cpu = cpuSeconds(sluice.child.pid) - cpu0;
  const ncpu0 = nginxPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  runs.nginx.push({ ...wrk(`http://127.0.0.1:${httpPort}/segment.ts`), cpu: 0 });
  runs.nginx.at(-1).cpu = nginxPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0) - ncpu0;
}
await stop(sender);
await sluice.stop();
await rm(sluice.dir, { recursive: true, force: true });
await nginx.stop();
await rm(nginx.dir, { recursive: true, force: true });
await rm(root, { recursive: true, force: true });
/** The round with the median requests per second. */
const median = (list) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
const sluiceRun = median(runs.sluice);
const nginxRun = median(runs.nginx);
const sluiceCpu = sluiceRun.cpu;
const nginxCpu = nginxRun.cpu;

const pct = (cpu) => `${((cpu / SECONDS) * 100).toFixed(0)}% of a core`;
console.log(
  `one ${(segment.length / 1024).toFixed(0)} KB segment, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, wrk -t2`,
);
const rows = [
  ['', 'Sluice (from memory)', 'nginx (static file)'],
  ['requests/s', sluiceRun.rps.toFixed(0), nginxRun.rps.toFixed(0)],
  ['transfer/s', sluiceRun.transfer, nginxRun.transfer],
  ['latency p50 / p99', `${sluiceRun.p50} / ${sluiceRun.p99}`, `${nginxRun.p50} / ${nginxRun.p99}`],
  ['non-2xx responses', sluiceRun.errors, nginxRun.errors],
  ['server CPU', pct(sluiceCpu), pct(nginxCpu)],
];
for (const row of rows) console.log(row.map((c, i) => String(c).padEnd(i === 0 ? 22 : 26)).join(''));
console.log(
  `each round (requests/s): Sluice ${runs.sluice.map((r) => r.rps.toFixed(0)).join(', ')}; nginx ${runs.nginx.map((r) => r.rps.toFixed(0)).join(', ')}`,
);
console.log(
  `Sluice / nginx requests per second (medians of ${ROUNDS} rounds): ${(sluiceRun.rps / nginxRun.rps).toFixed(2)}`,
);
