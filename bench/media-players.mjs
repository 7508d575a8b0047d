// Real-time HLS players of one live 2 Mbit/s stream (2,000 by default, each its own session and
// connection): each reloads the playlist and fetches new segments as hls.js does, playing at wall
// clock speed (bench/lib/hls-player.mjs); stalls are counted. The same crowd then plays the same clip
// made live by ffmpeg's HLS muxer and served by nginx (static files, `worker_processes auto`).
// Usage: npm run bench -- media-players [PLAYERS=2000] [SECONDS=60] [RAMP_SECONDS=10]
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
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

const PLAYERS = Number(process.argv[2] ?? 2000);
const SECONDS = Number(process.argv[3] ?? 60);
const RAMP_SECONDS = Number(process.argv[4] ?? 10);
/** Player threads: the crowd reads ~PLAYERS × 2 Mbit/s, more than one thread parses comfortably. */
const THREADS = 2;
const clip = makeClip(20);
const load0 = loadavg()[0];

/** Waits until `url` lists `count` segments. */
async function waitForSegments(url, count) {
  for (let t = 0; t < 60; t++) {
    const text = await fetch(url).then(
      (r) => (r.ok ? r.text() : ''),
      () => '',
    );
    if (text.split('\n').filter((l) => l.endsWith('.ts')).length >= count) return;
    await sleep(1000);
  }
  throw new Error(`${url} listed no segments`);
}

/** Runs the crowd against `playlistUrl`; the server's CPU is read from `pids` over the run. */
async function crowd(playlistUrl, pids) {
  const cpuOf = () => pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const cpu0 = cpuOf();
  const client0 = process.cpuUsage();
  const untilMs = Date.now() + (RAMP_SECONDS + SECONDS) * 1000;
  const perThread = Math.ceil(PLAYERS / THREADS);
  const results = await Promise.all(
    Array.from({ length: THREADS }, (_, i) => {
      const count = Math.min(perThread, PLAYERS - i * perThread);
      const spacingMs = (RAMP_SECONDS * 1000) / count;
      const worker = new Worker(new URL('./lib/hls-crowd.mjs', import.meta.url), {
        workerData: { playlistUrl, first: i * perThread, count, spacingMs, untilMs },
      });
      return new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    }),
  );
  const stats = results.flat();
  const client = process.cpuUsage(client0);
  const fetchMs = stats.flatMap((s) => s.fetchMs).sort((a, b) => a - b);
  const at = (q) => fetchMs[Math.min(fetchMs.length - 1, Math.floor(q * fetchMs.length))] ?? Number.NaN;
  const sum = (key) => stats.reduce((t, s) => t + s[key], 0);
  return {
    played: stats.filter((s) => s.startupMs !== undefined).length,
    stalls: sum('stalls'),
    stalledPlayers: stats.filter((s) => s.stalls > 0).length,
    stalledS: sum('stalledMs') / 1000,
    errors: sum('errors'),
    why: Object.entries(
      stats.reduce((all, s) => {
        for (const [cause, n] of Object.entries(s.why)) all[cause] = (all[cause] ?? 0) + n;
        return all;
      }, {}),
    )
      .map(([cause, n]) => `${cause}: ${n}`)
      .join(', '),
    segments: sum('segments'),
    p50: at(0.5),
    p99: at(0.99),
    serverCpu: ((cpuOf() - cpu0) / (RAMP_SECONDS + SECONDS)) * 100,
    clientCpu: ((client.user + client.system) / 1e6 / (RAMP_SECONDS + SECONDS)) * 100,
  };
}

// ---- Sluice: every player is its own session from 127.0.0.1, so the per-address caps are lifted.
process.env.SLUICE_HTTP_CONNECTIONS_PER_ADDRESS = String(2 * PLAYERS);
const udpPort = await freePort();
const sluice = await startSluice(
  `http {http};\nedit_auth admin bench-pw;\nmax_sessions_per_ip ${2 * PLAYERS};\n` +
    `stream live {\n  url udp://127.0.0.1:${udpPort};\n  static true;\n}\n`,
);
const rate = String(clipBytesPerSecond(clip));
const sender = spawn(process.execPath, ['bench/lib/udp-sender.mjs', clip, String(udpPort), '1', rate], {
  stdio: 'ignore',
});
await waitForSegments(`${sluice.base}/live/video.m3u8`, 4);
const sluiceRun = await crowd(`${sluice.base}/live/video.m3u8`, () => [sluice.child.pid]);
await stop(sender);
await sluice.stop();
await rm(sluice.dir, { recursive: true, force: true });

// ---- nginx: ffmpeg's HLS muxer makes the clip live in a folder nginx serves.
const root = await mkdtemp(join(tmpdir(), 'sluice-bench-hls-'));
await mkdir(join(root, 'live'));
await chmod(root, 0o755);
await chmod(join(root, 'live'), 0o755);
const ffmpeg = spawn(
  'ffmpeg',
  [
    ...['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy'],
    ...['-f', 'hls', '-hls_time', '2', '-hls_list_size', '4', '-hls_flags', 'delete_segments'],
    ...['-hls_segment_filename', join(root, 'live', 'seg-%d.ts'), join(root, 'live', 'video.m3u8')],
  ],
  { stdio: 'ignore' },
);
const httpPort = await freePort();
const nginx = await startNginx(
  'http { sendfile on; tcp_nopush on; access_log off; ' +
    `types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; } ` +
    `server { listen 127.0.0.1:${httpPort}; location / { root ${root}; add_header Cache-Control no-cache; } } }`,
);
await waitForSegments(`http://127.0.0.1:${httpPort}/live/video.m3u8`, 4);
const nginxRun = await crowd(`http://127.0.0.1:${httpPort}/live/video.m3u8`, () => [
  nginx.child.pid,
  ...nginx.workers(),
]);
const nginxWorkers = nginx.workers().length;
await stop(ffmpeg);
await nginx.stop();
await rm(nginx.dir, { recursive: true, force: true });
await rm(root, { recursive: true, force: true });

console.log(
  `${PLAYERS} real-time HLS players of one live stream, started over ${RAMP_SECONDS} s, then ${SECONDS} s; ${THREADS} player threads`,
);
const pad = (cells) => cells.map((c, i) => String(c).padEnd(i === 0 ? 28 : 26)).join('');
const ms = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`);
const rows = [
  ['', 'Sluice (from memory)', `nginx (${nginxWorkers} workers, ffmpeg hls)`],
  ['players that played', sluiceRun.played, nginxRun.played],
  [
    'stalls (players stalled)',
    `${sluiceRun.stalls} (${sluiceRun.stalledPlayers})`,
    `${nginxRun.stalls} (${nginxRun.stalledPlayers})`,
  ],
  ['time stalled, all players', `${sluiceRun.stalledS.toFixed(1)} s`, `${nginxRun.stalledS.toFixed(1)} s`],
  ['errors', sluiceRun.errors, nginxRun.errors],
  ['  by cause', sluiceRun.why || '-', nginxRun.why || '-'],
  ['segments fetched', sluiceRun.segments, nginxRun.segments],
  [
    'segment fetch p50 / p99',
    `${ms(sluiceRun.p50)} / ${ms(sluiceRun.p99)}`,
    `${ms(nginxRun.p50)} / ${ms(nginxRun.p99)}`,
  ],
  [
    'server CPU',
    `${sluiceRun.serverCpu.toFixed(0)}% of a core`,
    `${nginxRun.serverCpu.toFixed(0)}% of a core`,
  ],
  [
    'player threads CPU',
    `${sluiceRun.clientCpu.toFixed(0)}% of a core`,
    `${nginxRun.clientCpu.toFixed(0)}% of a core`,
  ],
];
for (const row of rows) console.log(pad(row));
console.log('target: 2,000 players held with no stall');
console.log(`load average (1 min) before ${load0.toFixed(2)}, after ${loadavg()[0].toFixed(2)}`);
