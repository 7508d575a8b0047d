// Pulse at scale (issue 21):
// 1. collection and storage CPU for 1,000 streams (the system sampler plus 3 series a stream and the
//    server totals recorded each second into the Pulse store, batched to SQLite) in this process,
//    beside the CPU of a server holding 1,000 idle streams over the same seconds;
// 2. a 7-day minute-resolution query over HTTP on a store filled with 7 days of minute points;
// 3. GET /metrics scrape time and size at 1,000 and 20,000 streams, beside read_config of the same server.
// `npm run bench -- pulse [--seconds 60] [--only collect,metrics,week]`.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, startSluice } from './lib/media.mjs';
import { PulseStore } from '../packages/server/dist/pulse/pulse-store.js';
import { SystemSampler } from '../packages/server/dist/pulse/system-samplers.js';
import { TrafficHistory } from '../packages/server/dist/pulse/traffic-history.js';

const arg = (name) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const SECONDS = Number(arg('--seconds')) || 60;
const ONLY = new Set((arg('--only') ?? 'collect,metrics,week').split(','));
const TOKEN = 'bench-scrape-token';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ms = (x) => `${x.toFixed(1)} ms`;
const kib = (b) => `${(b / 1024).toFixed(0)} KiB`;

/** N on-demand streams (started by a viewer only, so idle here), a scrape token and a pulsedb. */
function configOf(streams, pulsedb) {
  let text = `http {http};\nedit_auth admin bench-pw;\nmetrics_token ${TOKEN};\n`;
  if (pulsedb) text += `pulsedb ${pulsedb};\n`;
  for (let i = 0; i < streams; i++)
    text += `stream cam${i} {\n  url udp://239.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1234;\n}\n`;
  return text;
}

/** Median time and size of `count` GETs of `path` (after two to warm up). */
async function timeGet(server, path, headers, count = 15) {
  const times = [];
  let bytes = 0;
  let wireBytes = 0;
  for (let i = 0; i < count + 2; i++) {
    const t = performance.now();
    const r = await fetch(`${server.base}${path}`, { headers });
    const body = await r.arrayBuffer();
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    if (i >= 2) times.push(performance.now() - t);
    bytes = body.byteLength;
    wireBytes = Number(r.headers.get('content-length')) || bytes;
  }
  return { ms: median(times), bytes, wireBytes };
}

// ---- 1. collection and storage CPU, 1,000 streams, beside the idle server ----
const STREAMS = 1000;
const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-pulse-'));
const server = await startSluice(configOf(STREAMS));
// A bench that fails half-way leaves no server behind.
const started = [server.child];
process.on('exit', () => started.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));
// Made after the empty loop is measured: its event-loop lag timer is part of what Pulse costs.
let sampler;
const names = Array.from({ length: STREAMS }, (_, i) => `cam${i}`);
// Flushed every 5 s as the server's collection does (pulse-service.ts FLUSH_EVERY_MS).
const FLUSH_EVERY = 5;

const cpuMs = (since) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};
let samplerCpuMs = 0;
let lastSample;

/** A store and the TrafficHistory the server feeds each stream's figures through (engine onStats). */
function pulseStore(file) {
  const store = new PulseStore(join(dir, file));
  return { store, traffic: new TrafficHistory(() => store) };
}

/** One second's collection: what Pulse records for the machine, the totals and each stream. */
async function collect({ store, traffic }, nowMs, second, sample = true) {
  if (sample) {
    const c0 = process.cpuUsage();
    lastSample = await sampler.sample(nowMs);
    samplerCpuMs += cpuMs(c0);
  }
  const s = lastSample;
  store.record('cpu_usage', {}, s.cpu_usage, nowMs);
  store.record('server_cpu_usage', {}, s.server_cpu_usage, nowMs);
  store.record('total_memavail', {}, s.total_memavail, nowMs);
  store.record('total_memused', {}, s.total_memused, nowMs);
  store.record('total_memusage', {}, s.total_memusage, nowMs);
  store.record('event_loop_utilization', {}, s.event_loop_utilization, nowMs);
  store.record('active_handles', {}, s.active_handles, nowMs);
  store.record('active_requests', {}, s.active_requests, nowMs);
  for (const d of s.disk_io_usage) store.record('disk_io_usage', { disk: d.disk }, d.usage, nowMs);
  for (const p of s.partitions) store.record('partition_usage', { path: p.path }, p.usage, nowMs);
  let input = 0;
  let output = 0;
  let clients = 0;
  for (let i = 0; i < names.length; i++) {
    // Synthetic but varying figures (a constant would let a store skip work it must do).
    const inKbit = 2000 + ((i * 7 + second * 13) % 400);
    const outKbit = inKbit * ((i + second) % 5);
    const c = (i + second) % 5;
    traffic.sample(names[i], inKbit, outKbit, nowMs, c);
    input += inKbit;
    output += outKbit;
    clients += c;
  }
  store.record('total_input', {}, input, nowMs);
  store.record('total_output', {}, output, nowMs);
  store.record('total_clients', {}, clients, nowMs);
  if (second % FLUSH_EVERY === 0) store.flush(nowMs);
}

/**
 * This process's CPU (% of a core) over `seconds` wall-clock ticks doing `work` each second, and the
 * idle server's over the same seconds. With no work it measures what the loop itself costs.
 */
async function ticking(seconds, work, firstSecond = 1) {
  const serverCpu0 = cpuSeconds(server.child.pid);
  const self0 = process.cpuUsage();
  const wall0 = performance.now();
  let worstTickMs = 0;
  let inTicksMs = 0;
  for (let second = firstSecond; second < firstSecond + seconds; second++) {
    // Ticks on the wall-clock second, as a collection loop would.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
    const t = performance.now();
    const c0 = process.cpuUsage();
    await work(Date.now(), second);
    inTicksMs += cpuMs(c0);
    worstTickMs = Math.max(worstTickMs, performance.now() - t);
  }
  const wallS = (performance.now() - wall0) / 1000;
  return {
    pct: (cpuMs(self0) / 1000 / wallS) * 100,
    serverPct: ((cpuSeconds(server.child.pid) - serverCpu0) / wallS) * 100,
    inTicksPct: (inTicksMs / 1000 / wallS) * 100,
    worstTickMs,
    wallS,
  };
}

/**
 * The store's steady state on a simulated clock: 30 minutes of collection (each kind of write at its
 * own rate once at least: the open day of minutes is written every 30 min) after a warm-up, the
 * system sample replayed (it is measured in real time above). CPU ms per simulated second.
 */
function simulated() {
  const target = pulseStore('collect-simulated.sqlite');
  const t0 = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const run = (from, to) => {
    for (let second = from; second < to; second++) collect(target, t0 + second * 1000, second, false);
  };
  run(1, 120);
  const c0 = process.cpuUsage();
  run(120, 120 + 1800);
  const perSecondMs = cpuMs(c0) / 1800;
  target.store.close(t0 + 1921_000);
  return perSecondMs;
}

if (ONLY.has('collect')) {
  const loadBefore = load();
  // The process ticking with no work and no sampler: what the bench's own loop costs.
  const empty = await ticking(Math.min(SECONDS, 30), async () => undefined);
  sampler = new SystemSampler({ paths: () => [dir] });
  const live = pulseStore('collect.sqlite');
  // Untimed: the series are made (3,000 at the first second) and the code warmed up.
  await ticking(5, (nowMs, second) => collect(live, nowMs, second));
  samplerCpuMs = 0;
  const run = await ticking(SECONDS, (nowMs, second) => collect(live, nowMs, second), 6);
  const { series } = live.store.counts();
  live.store.close();
  const pulsePct = run.pct - empty.pct;
  const samplerPct = (samplerCpuMs / 1000 / run.wallS) * 100;
  console.log(`collection at ${STREAMS} streams, load average before: ${loadBefore}, after: ${load()}`);
  console.log(
    `collection + storage, ${STREAMS} streams (${series} series), ${SECONDS} s after 5 s of warm-up: ${pulsePct.toFixed(2)} % of a core ` +
      `(target < 1 %): this process ${run.pct.toFixed(2)} % less ${empty.pct.toFixed(2)} % for the same loop ticking with no work and no sampler; ` +
      `of it the system sampler ${samplerPct.toFixed(2)} %, the store ${(pulsePct - samplerPct).toFixed(2)} %; ` +
      `the CPU inside the ticks alone ${run.inTicksPct.toFixed(2)} %; slowest second ${ms(run.worstTickMs)}`,
  );
  console.log(
    `  reference, the server idle with ${STREAMS} on-demand streams over the same seconds (its own Pulse collection ` +
      `included: system and totals, idle streams have no series): ${run.serverPct.toFixed(2)} % of a core; ` +
      `collection is ${(pulsePct / run.serverPct).toFixed(2)}x that`,
  );
  const storeMs = simulated();
  console.log(
    `  the store alone on a simulated clock, 1,800 s of 3,013 series: ${ms(storeMs)} of CPU a second = ` +
      `${(storeMs / 10).toFixed(2)} % of a core  (load ${load()})`,
  );
}

// ---- 3. /metrics at 1,000 streams (this server), then 20,000 ----
async function scrape(target, streams) {
  for (const encoding of ['identity', 'gzip']) {
    const headers = { authorization: `Bearer ${TOKEN}`, 'accept-encoding': encoding };
    const metrics = await timeGet(target, '/metrics', headers);
    const cpu0 = cpuSeconds(target.child.pid);
    for (let i = 0; i < 10; i++)
      await fetch(`${target.base}/metrics`, { headers }).then((r) => r.arrayBuffer());
    const cpuPerScrapeMs = ((cpuSeconds(target.child.pid) - cpu0) * 1000) / 10;
    console.log(
      `GET /metrics, ${streams} streams, ${encoding}: median ${ms(metrics.ms)}, ${kib(metrics.bytes)} of text, ${kib(metrics.wireBytes)} sent, ` +
        `server CPU ${ms(cpuPerScrapeMs)} a scrape: every 15 s that is ${((cpuPerScrapeMs / 15_000) * 100).toFixed(2)} % of a core`,
    );
  }
  const config = await timeGet(target, '/flussonic/api/read_config', {
    authorization: `Basic ${Buffer.from('admin:bench-pw').toString('base64')}`,
    'accept-encoding': 'identity',
  });
  console.log(
    `  reference, read_config of the same server: median ${ms(config.ms)}, ${kib(config.bytes)}  (load ${load()})`,
  );
}
if (ONLY.has('metrics')) await scrape(server, STREAMS);
await server.stop();
await rm(server.dir, { recursive: true, force: true });
if (ONLY.has('metrics')) {
  const big = await startSluice(configOf(20_000));
  started.push(big.child);
  await scrape(big, 20_000);
  await big.stop();
  await rm(big.dir, { recursive: true, force: true });
}

// ---- 2. a 7-day minute-resolution query ----
const { weekQuery } = await import('./lib/pulse-week.mjs');
if (ONLY.has('week')) await weekQuery({ dir, startSluice, configOf, median, ms, load });
await rm(dir, { recursive: true, force: true });
