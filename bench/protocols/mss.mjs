// Smooth Streaming fragments per second beside HLS TS segments, in the same run, on one test://
// stream (640x360, 800 kbit/s, 2 s segments): CLIENTS keep-alive clients each asking for a random
// fragment (video or audio) of the MSS manifest, then for a random segment of the HLS playlist, for
// SECONDS each. Both come from memory: each MSS fragment is remuxed once, when first asked for, so
// the steady state is what is measured. Figures: requests/s, MB/s, p50/p95 ms, server CPU per 1000
// requests, errors; the load average beside them (the machine is shared).
import { loadavg } from 'node:os';
import { get, keepAlive, loadFor, percentile } from '../lib/http-load.mjs';
import { cpuSeconds, sleep, startSluice } from '../lib/media.mjs';

const CLIENTS = Number(process.env.MSS_CLIENTS ?? 50);
const CONFIG =
  'http {http};\nedit_auth admin bench-pw;\n' +
  'stream bench {\n  url test://?size=640x360&bitrate=800;\n  static true;\n  segment_duration 2000;\n}\n';

/** Fragment URLs the manifest lists now (every StreamIndex, its template filled in). */
async function mssUrls(base, agent) {
  const { status, body } = await get(agent, `${base}/bench.isml/manifest`, {}, true);
  if (status !== 200) return [];
  const urls = [];
  for (const [, streamIndex] of body.matchAll(/<StreamIndex ([^]*?)<\/StreamIndex>/g)) {
    const template = /Url="([^"]+)"/.exec(streamIndex)[1];
    const bitrate = /Bitrate="(\d+)"/.exec(streamIndex)[1];
    for (const [, t] of streamIndex.matchAll(/<c t="(\d+)"/g))
      urls.push(`${base}/bench.isml/${template.replace('{bitrate}', bitrate).replace('{start time}', t)}`);
  }
  return urls;
}

/** Segment URLs the HLS media playlist lists now. */
async function hlsUrls(base, agent) {
  const { status, body } = await get(agent, `${base}/bench/video.m3u8`, {}, true);
  if (status !== 200) return [];
  return body
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => `${base}/bench/${l}`);
}

/** Load on the URLs `list()` gives, refreshed each second (the live window moves under the clients). */
async function measure(server, seconds, list) {
  const agent = keepAlive(2);
  let urls = await list(server.base, agent);
  const refresh = setInterval(async () => {
    const fresh = await list(server.base, agent);
    if (fresh.length > 0) urls = fresh;
  }, 1000);
  // Every listed fragment requested once first: the remux of each is then behind us.
  await Promise.all(urls.map((url) => get(agent, url)));
  const cpu0 = cpuSeconds(server.child.pid);
  const load = await loadFor({
    seconds,
    concurrency: CLIENTS,
    okStatus: 200,
    next: () => ({ url: urls[Math.floor(Math.random() * urls.length)] }),
  });
  const cpu = cpuSeconds(server.child.pid) - cpu0;
  clearInterval(refresh);
  agent.destroy();
  return {
    perSecond: load.count / load.wallS,
    mbPerSecond: load.bytes / load.wallS / 1e6,
    p50: percentile(load.latencies, 50),
    p95: percentile(load.latencies, 95),
    cpuMsPer1000: (cpu * 1e6) / Math.max(1, load.count),
    errors: load.errors,
    listed: urls.length,
  };
}

export async function run({ seconds }) {
  const server = await startSluice(CONFIG);
  try {
    // The manifest waits for 5 fragments (about 12 s of a new stream).
    for (;;) {
      const r = await fetch(`${server.base}/bench.isml/manifest`);
      if (r.ok) break;
      await sleep(500);
    }
    const row = (label, m) =>
      console.log(
        `${label.padEnd(44)} ${m.perSecond.toFixed(0).padStart(6)} req/s  ${m.mbPerSecond.toFixed(0).padStart(4)} MB/s  ` +
          `p50 ${m.p50.toFixed(1)} ms  p95 ${m.p95.toFixed(1)} ms  ${m.cpuMsPer1000.toFixed(0).padStart(4)} ms CPU/1000 req  ` +
          `errors ${m.errors}  (${m.listed} listed)`,
      );
    const mss = await measure(server, seconds, mssUrls);
    const hls = await measure(server, seconds, hlsUrls);
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${CLIENTS} clients each`,
    );
    row('MSS fragments (video and audio)', mss);
    row('reference: HLS TS segments (video + audio)', hls);
  } finally {
    await server.stop();
  }
}
