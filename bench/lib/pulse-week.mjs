// bench pulse, part 2: a Pulse store filled with 7 days of minute points (recorded through the
// store's own record(), one value a minute, so they land in its minute blocks as collection's do),
// then a server opened on it and the 7-day range asked for over HTTP.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePulseQuery } from '@sluice/api';
import { runPulseQuery } from '../../packages/server/dist/pulse/pulse-query-run.js';
import { PulseStore } from '../../packages/server/dist/pulse/pulse-store.js';
import { cpuSeconds } from './media.mjs';

const DAY_MS = 86_400_000;
/** Streams whose media_input fills the week; the summed query reads all of them. */
const WEEK_STREAMS = 100;
const METRICS = ['cpu_usage', 'total_memusage', 'total_input', 'total_output', 'total_clients'];

function fillWeek(path, nowMs) {
  const store = new PulseStore(path);
  const start = Math.floor((nowMs - 7 * DAY_MS) / 60_000) * 60_000;
  let points = 0;
  for (let t = start, minute = 0; t <= nowMs; t += 60_000, minute++) {
    for (const m of METRICS) store.record(m, {}, 50 + 40 * Math.sin(minute / 90), t);
    for (let i = 0; i < WEEK_STREAMS; i++)
      store.record('media_input', { name: `cam${i}` }, 2000 + ((i + minute) % 300), t);
    points += METRICS.length + WEEK_STREAMS;
    // A simulated hour at a time: the store's batches stay as big as an hour of real collection.
    if (minute % 60 === 0) store.flush(t);
  }
  store.close(nowMs);
  return points;
}

export async function weekQuery({ dir, startSluice, configOf, median, ms, load }) {
  // The server keeps its store at <pulsedb>/pulse.sqlite3 (pulse/pulse-service.ts).
  const pulsedb = join(dir, 'pulsedb');
  await mkdir(pulsedb, { recursive: true });
  const path = join(pulsedb, 'pulse.sqlite3');
  const t0 = performance.now();
  const points = fillWeek(path, Date.now());
  console.log(`7 days of minute points: ${points} recorded in ${ms(performance.now() - t0)}`);
  const queries = ['max:60s-savg:cpu_usage', 'sum:60s-tavg8:total_input', `sum:60s-tavg8:media_input`];
  // In this process, on the same file: the store's read and the query alone, no HTTP.
  const inProcess = new Map();
  const store = new PulseStore(path);
  for (const query of queries) {
    const times = [];
    const cpus = [];
    for (let i = 0; i < 12; i++) {
      const now = Date.now();
      const t = performance.now();
      const c0 = process.cpuUsage();
      runPulseQuery(store, parsePulseQuery(query), {
        fromMs: now - 7 * DAY_MS + 60_000,
        toMs: now,
        nowMs: now,
      });
      const c = process.cpuUsage(c0);
      if (i >= 2) times.push(performance.now() - t);
      if (i >= 2) cpus.push((c.user + c.system) / 1000);
    }
    inProcess.set(query, { wall: median(times), cpu: median(cpus) });
  }
  store.close();
  const server = await startSluice(configOf(WEEK_STREAMS, pulsedb));
  process.on('exit', () => server.child.exitCode === null && server.child.kill('SIGKILL'));
  try {
    for (const query of queries) {
      const times = [];
      let answer;
      let bytes = 0;
      let cpu0 = 0;
      for (let i = 0; i < 12; i++) {
        // The server's CPU over the 10 timed requests (clock ticks: per request it is the mean).
        if (i === 2) cpu0 = cpuSeconds(server.child.pid);
        const to = Date.now();
        const from = to - 7 * DAY_MS + 60_000;
        const t = performance.now();
        const r = await server.api(
          `/flussonic/api/pulse?query=${encodeURIComponent(query)}&from=${from}&to=${to}`,
        );
        const text = await r.text();
        if (r.status === 404) {
          console.log(`7-day query: not measured, GET /flussonic/api/pulse answers 404 (not in this build)`);
          return;
        }
        if (!r.ok) throw new Error(`${query}: ${r.status} ${text}`);
        if (i >= 2) times.push(performance.now() - t);
        answer = JSON.parse(text);
        bytes = text.length;
      }
      const serverCpuMs = ((cpuSeconds(server.child.pid) - cpu0) * 1000) / 10;
      const own = inProcess.get(query);
      const series = answer.series ?? [];
      const got = series.reduce((n, s) => n + s.points.filter((p) => p[1] !== null).length, 0);
      console.log(
        `7-day query ${query}: over HTTP median ${ms(median(times))} (target < 50 ms), server CPU ${ms(serverCpuMs)} a request; ` +
          `in process median ${ms(own.wall)}, CPU ${ms(own.cpu)}; ` +
          `step ${answer.step_ms} ms, ${series.length} series, ${got} points, ${(bytes / 1024).toFixed(0)} KiB  (load ${load()})`,
      );
    }
  } finally {
    await server.stop();
  }
}
