// Delivery: a live 2 Mbit/s stream's newest HLS segment and its media playlist fetched by 200 and by
// 1,000 keep-alive connections (wrk -t2), from Sluice's memory and, in the same run, from nginx
// serving the same bytes as static files (sendfile, open file cache, `worker_processes auto`), and
// from a bare Node HTTP server answering the same bytes (one thread; two cluster workers).
// Rounds alternate between the servers, so a load elsewhere on the machine falls on all alike.
// Usage: npm run bench -- media-delivery [SECONDS=8] [ROUNDS=3] [CONNECTIONS=200,1000]
//   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server (bench/lib/media.mjs).
// bench/media-players.mjs (`npm run bench -- media-players`, its own arguments) holds
// 2,000 real-time HLS players.
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
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
import { WRK_TIMEOUT_S, wrk } from './lib/wrk.mjs';

const SECONDS = Number(process.argv[2] ?? 8);
const ROUNDS = Number(process.argv[3] ?? 3);
const CONNECTIONS = (process.argv[4] ?? '200,1000').split(',').map(Number);
const clip = makeClip(20);
const load0 = loadavg()[0];

// ---- Sluice: a live stream, 6 segments listed (a usual live playlist). wrk's connections all
// come from 127.0.0.1: Sluice's cap of 256 connections per address (docs/api.md) is lifted, as
// for a proxy in front; nginx has no such cap.
process.env.SLUICE_HTTP_CONNECTIONS_PER_ADDRESS = String(2 * Math.max(...CONNECTIONS));
const udpPort = await freePort();
const sluice = await startSluice(
  `http {http};\nedit_auth admin bench-pw;\nstream live {\n  url udp://127.0.0.1:${udpPort};\n  static true;\n  segment_count 6;\n}\n`,
);
const sender = spawn(
  process.execPath,
  ['bench/lib/udp-sender.mjs', clip, String(udpPort), '1', String(clipBytesPerSecond(clip))],
  { stdio: 'ignore' },
);
const playlistUrl = `${sluice.base}/live/video.m3u8`;
/** The newest segment's URI (each Sluice run fetches the newest, as live players do), once `listed`. */
async function newestSegment(listed = 2) {
  for (let t = 0; t < 40; t++) {
    // A pooled connection the server closed while idle (wrk ran meanwhile) fails once: ask again.
    const playlist = await fetch(playlistUrl).then(
      (r) => (r.ok ? r.text() : ''),
      () => '',
    );
    const uris = playlist.split('\n').filter((l) => l.endsWith('.ts'));
    if (uris.length >= listed) return { playlist, uri: uris.at(-1) };
    await sleep(1000);
  }
  throw new Error('the stream made no segments');
}
// nginx gets the playlist once it is full, so both serve the same length.
const first = await newestSegment(6);
const segment = Buffer.from(await (await fetch(`${sluice.base}/live/${first.uri}`)).arrayBuffer());

// ---- nginx: the same bytes as static files.
const httpPort = await freePort();
const root = await mkdtemp(join(tmpdir(), 'sluice-bench-www-'));
await mkdir(join(root, 'live'));
await writeFile(join(root, 'live', 'segment.ts'), segment, { mode: 0o644 });
await writeFile(join(root, 'live', 'video.m3u8'), first.playlist, { mode: 0o644 });
// nginx's workers run as an unprivileged user: the folders must be readable to them.
await chmod(root, 0o755);
await chmod(join(root, 'live'), 0o755);
const nginx = await startNginx(
  'http { sendfile on; tcp_nopush on; access_log off; open_file_cache max=100; keepalive_requests 100000; ' +
    `server { listen 127.0.0.1:${httpPort}; location / { root ${root}; } } }`,
);
const nginxWorkers = nginx.workers().length;
// ---- Node's own HTTP server, nothing else, in one thread and in one cluster worker per core: what
// one Node thread can do at best, and what delivery workers could buy (bench/lib/bare-node-server.mjs).
const bare = [];
for (const workers of [1, 2]) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      'bench/lib/bare-node-server.mjs',
      String(port),
      String(workers),
      ...['segment.ts', 'video.m3u8'].map((f) => join(root, 'live', f)),
    ],
    { stdio: 'ignore' },
  );
  for (let ok = false; !ok; await sleep(100))
    ok = await fetch(`http://127.0.0.1:${port}/live/video.m3u8`).then(
      (r) => r.ok,
      () => false,
    );
  bare.push({ workers, port, child, pids: () => [child.pid, ...childrenOf(child.pid)] });
}

const cpuOf = (pids) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
const sluicePids = () => [sluice.child.pid];
const nginxPids = () => [nginx.child.pid, ...nginx.workers()];
function childrenOf(pid) {
  const out = spawnSync('pgrep', ['-P', String(pid)]).stdout.toString();
  return out.split('\n').filter(Boolean).map(Number);
}

/** One wrk run with the server's CPU seconds over it. */
function measured(url, pids, connections) {
  const cpu0 = cpuOf(pids());
  const run = wrk(url, { connections, seconds: SECONDS });
  return { ...run, cpu: cpuOf(pids()) - cpu0 };
}

const cases = [];
for (const resource of ['segment', 'playlist'])
  for (const connections of CONNECTIONS)
    cases.push({ resource, connections, sluice: [], nginx: [], bare: [[], []] });
for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) {
    const url =
      c.resource === 'playlist' ? playlistUrl : `${sluice.base}/live/${(await newestSegment()).uri}`;
    c.sluice.push(measured(url, sluicePids, c.connections));
    const file = c.resource === 'playlist' ? 'video.m3u8' : 'segment.ts';
    c.nginx.push(measured(`http://127.0.0.1:${httpPort}/live/${file}`, nginxPids, c.connections));
    for (const [i, b] of bare.entries())
      c.bare[i].push(measured(`http://127.0.0.1:${b.port}/live/${file}`, b.pids, c.connections));
  }
}
await stop(sender);
for (const b of bare) await stop(b.child);
await sluice.stop();
await rm(sluice.dir, { recursive: true, force: true });
await nginx.stop();
await rm(nginx.dir, { recursive: true, force: true });
await rm(root, { recursive: true, force: true });

/** The round with the median requests per second. */
const median = (list) => [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
const ms = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 10 ? 1 : 0)} ms`);
/** CPU seconds per GiB delivered: cores busy per GiB/s. */
const cpuPerGiB = (r) => (r.bytes > 0 ? r.cpu / (r.bytes / 1024 ** 3) : Number.NaN);
const pct = (r) => `${((r.cpu / SECONDS) * 100).toFixed(0)}% of a core`;

console.log(
  `segment ${(segment.length / 1024).toFixed(0)} KB, playlist ${first.playlist.length} B; ${ROUNDS} rounds of ${SECONDS} s, wrk -t2 --timeout ${WRK_TIMEOUT_S}s`,
);
console.log(
  `nginx: worker_processes auto = ${nginxWorkers} workers on ${cpus().length} cores, sendfile on; Sluice: one process, one thread serving`,
);
const pad = (cells) => cells.map((c, i) => String(c).padEnd(i === 0 ? 26 : 20)).join('');
const sumTimeouts = (runs) => runs.reduce((t, r) => t + r.timeouts, 0);
const summary = [];
for (const c of cases) {
  const columns = [c.sluice, c.nginx, ...c.bare];
  const m = columns.map(median);
  const [s, n] = m;
  console.log(`\n${c.resource}, ${c.connections} connections`);
  const rows = [
    ['', 'Sluice (memory)', 'nginx (static file)', 'bare Node, 1 thread', 'bare Node, 2 workers'],
    ['requests/s', ...m.map((r) => r.rps.toFixed(0))],
    ['transfer/s', ...m.map((r) => `${(r.bytes / SECONDS / 1024 ** 2).toFixed(0)} MiB`)],
    ['latency p50 / p99', ...m.map((r) => `${ms(r.p50Ms)} / ${ms(r.p99Ms)}`)],
    ['timeouts (all rounds)', ...columns.map(sumTimeouts)],
    ['non-2xx / socket errors', ...m.map((r) => `${r.non2xx} / ${r.socketErrors}`)],
    ['server CPU', ...m.map(pct)],
    ['CPU s per GiB delivered', ...m.map((r) => cpuPerGiB(r).toFixed(2))],
  ];
  for (const row of rows) console.log(pad(row));
  const rounds = (runs) => runs.map((r) => r.rps.toFixed(0)).join(', ');
  console.log(`each round (requests/s): Sluice ${rounds(c.sluice)}; nginx ${rounds(c.nginx)}`);
  summary.push([
    `${c.resource} @${c.connections}`,
    (s.rps / n.rps).toFixed(2),
    (s.p99Ms / n.p99Ms).toFixed(2),
    sumTimeouts(c.sluice),
    (cpuPerGiB(s) / cpuPerGiB(n)).toFixed(2),
    `${(m[2].rps / n.rps).toFixed(2)} / ${(m[3].rps / n.rps).toFixed(2)}`,
  ]);
}
console.log(
  '\nSluice / nginx (median rounds); targets: requests/s >= 1.0, p99 <= 2.0, timeouts 0, CPU/GiB <= 1.3',
);
console.log(pad(['', 'requests/s', 'p99', 'Sluice timeouts', 'CPU per GiB', 'bare Node 1 / 2 req/s']));
for (const row of summary) console.log(pad(row));
console.log(`load average (1 min) before ${load0.toFixed(2)}, after ${loadavg()[0].toFixed(2)}`);
