// Cluster ingest failover (issue 22): three Sluice servers on loopback, each the others' peer, one
// `cluster_ingest` stream (test:// source, real ffmpeg, 2 s segments), default mode (rendezvous
// hashing, peers asked each second). KILLS times: SIGKILL the server capturing it, and time
//   capture   kill → another server's own source running (its ingest state says so)
//   playing   kill → the survivor that pulls it serves an HLS segment first listed after the new
//             capture started (segments closed before then hold media sent before the kill)
// then start the killed server again and wait for one capturer. Reference in the same run: a plain
// stream with two sources on one server (a pull from an origin Sluice, then test://), the origin
// SIGKILLed: kill → a segment made after the kill (source_timeout, the product default, decides).
// Arguments: [KILLS=10]
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { auth, sleep, startSluice } from '../lib/media.mjs';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../../packages/server/dist/cluster/proof.js';

const KEY = 'bench-ingest-key';
const STREAM = 'ch';
const SOURCE = 'test://?size=320x240&bitrate=300';
const BASE = `http {http};\nedit_auth admin bench-pw;\n`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function until(check, timeoutMs = 60_000, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(everyMs);
  }
}

async function modify(server, delta) {
  const r = await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(delta),
  });
  if (!r.ok) throw new Error(`modify_config: ${r.status} ${await r.text()}`);
}

async function running(server) {
  const path = '/flussonic/api/cluster/ingest';
  const r = await fetch(`${server.base}${path}`, {
    headers: { [CLUSTER_PROOF_HEADER]: signClusterRequest(KEY, path) },
    signal: AbortSignal.timeout(1000),
  });
  return r.ok ? (await r.json()).running.includes(STREAM) : false;
}

async function segments(server, name) {
  const r = await fetch(`${server.base}/${name}/video.m3u8`, { signal: AbortSignal.timeout(2000) });
  if (!r.ok) return [];
  return (await r.text()).split('\n').filter((l) => l && !l.startsWith('#'));
}

/** ms from `t0` until `server` lists a segment of `name` not in `before` and serves it. */
async function freshSegmentAfter(server, name, before, t0) {
  await until(async () => {
    const fresh = (await segments(server, name)).filter((u) => !before.has(u));
    if (fresh.length === 0) return false;
    const r = await fetch(new URL(fresh.at(-1), `${server.base}/${name}/`));
    return r.ok && (await r.arrayBuffer()).byteLength > 0;
  }, 60_000);
  return Date.now() - t0;
}

/** Starts the killed server again on its own config file and port (what it saved stays). */
async function relaunch(server) {
  server.child = spawn(
    process.execPath,
    ['packages/server/dist/main.js', '--config', `${server.dir}/sluice.conf`, '--host', '127.0.0.1'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await until(() =>
    fetch(`${server.base}/flussonic/api/server`, { headers: { authorization: auth } }).then((r) => r.ok),
  );
}

const kill = (child) => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  return exited;
};

async function clusterRuns(kills) {
  const servers = await Promise.all([0, 1, 2].map(() => startSluice(BASE)));
  try {
    for (const s of servers) {
      const peers = Object.fromEntries(
        servers.filter((o) => o !== s).map((o) => [`127.0.0.1:${o.port}`, { name: `127.0.0.1:${o.port}` }]),
      );
      await modify(s, { hostname: '127.0.0.1', cluster_key: KEY, peers });
    }
    for (const s of servers)
      await modify(s, {
        streams: { [STREAM]: { urls: [{ url: SOURCE }], static: true, cluster_ingest: true } },
      });
    const capture = [];
    const playing = [];
    for (let i = 0; i < kills; i++) {
      const capturer = await until(async () => {
        const on = [];
        for (const s of servers) if (await running(s)) on.push(s);
        return on.length === 1 ? on[0] : undefined;
      });
      const survivors = servers.filter((s) => s !== capturer);
      // Viewers on both survivors, playing before the kill.
      const before = new Map();
      for (const s of survivors) {
        await until(async () => (await segments(s, STREAM)).length > 0);
        before.set(s, new Set(await segments(s, STREAM)));
      }
      const t0 = Date.now();
      await kill(capturer.child);
      const next = await until(async () => {
        for (const s of survivors) if (await running(s)) return s;
        return undefined;
      });
      capture.push(Date.now() - t0);
      const puller = survivors.find((s) => s !== next);
      // Segments listed by then were cut from media sent before the kill: not "playing again".
      for (const uri of await segments(puller, STREAM)) before.get(puller).add(uri);
      playing.push(await freshSegmentAfter(puller, STREAM, before.get(puller), t0));
      console.log(
        `  kill ${i + 1}: capture ${fmt(capture.at(-1))}, playing on the puller ${fmt(playing.at(-1))}`,
      );
      await relaunch(capturer);
    }
    return { capture, playing };
  } finally {
    await Promise.all(servers.map((s) => kill(s.child).catch(() => undefined)));
  }
}

async function referenceRuns(kills) {
  const origin = await startSluice(`${BASE}stream src {\n  url ${SOURCE};\n  static;\n}\n`);
  const edge = await startSluice(BASE);
  try {
    const primary = `tshttp://127.0.0.1:${origin.port}/src/mpegts`;
    await modify(edge, {
      streams: { ref: { urls: [{ url: primary }, { url: `${SOURCE}&tone=880` }], static: true } },
    });
    const times = [];
    for (let i = 0; i < kills; i++) {
      const onPrimary = async () => {
        const config = await (await edge.api('/flussonic/api/read_config')).json();
        return config.streams?.ref?.stats?.url === primary && (await segments(edge, 'ref')).length > 0;
      };
      await until(onPrimary, 90_000, 200);
      const before = new Set(await segments(edge, 'ref'));
      const t0 = Date.now();
      await kill(origin.child);
      times.push(await freshSegmentAfter(edge, 'ref', before, t0));
      console.log(`  kill ${i + 1}: playing again ${fmt(times.at(-1))}`);
      await relaunch(origin);
    }
    return times;
  } finally {
    await Promise.all([kill(origin.child).catch(() => undefined), edge.stop()]);
  }
}

export async function run({ args = [] } = {}) {
  const kills = Number(args[0] ?? 10);
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores shared)`,
  );
  console.log('cluster ingest, three servers, SIGKILL of the capturer:');
  const cluster = await clusterRuns(kills);
  console.log(
    'reference: one server, a stream pulled from an origin with test:// as second source, SIGKILL of the origin:',
  );
  const reference = await referenceRuns(kills);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    '\n| figure (median of %d kills) | cluster ingest | reference: two-source stream | target |',
    kills,
  );
  console.log('|---|---|---|---|');
  console.log(`| kill → another server captures | ${fmt(median(cluster.capture))} | — | |`);
  console.log(
    `| kill → new segment served (puller) | ${fmt(median(cluster.playing))} (max ${fmt(Math.max(...cluster.playing))}) | ${fmt(median(reference))} (max ${fmt(Math.max(...reference))}) | < 5 s |`,
  );
  console.log(
    `| ratio to the reference | ${(median(cluster.playing) / median(reference)).toFixed(2)} | 1 | |`,
  );
}
