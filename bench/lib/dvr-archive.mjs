// The archive half of the DVR bench: S day-long archives (hard links to one real segment) and a
// stretch of real, distinct 2 Mbit/s segments for MP4 export, read back by a freshly started Sluice.
// Measures the restart (spawn → every archive answers), a 24 h playlist and MP4 exports, each beside
// a reference timed in the same run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, sleep, startNginx, startSluice } from './media.mjs';
import { buildDay, cutSegments, medianP95, placeSegments } from './dvr-fixture.mjs';

const DAY_MS = 86_400_000;
const seconds = (ms) => ms / 1000;
/** Wall time of a synchronous shell command, in ms, with its output. */
function timeShell(command) {
  const t0 = performance.now();
  const result = spawnSync('sh', ['-c', command]);
  if (result.status !== 0) throw new Error(`${command}: ${result.stderr}`);
  return { ms: performance.now() - t0, out: result.stdout.toString().trim() };
}

function probeSeconds(file) {
  const probe = spawnSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(probe.stdout.toString().trim());
}

/** Builds the archives under `base`/dvr; returns what the measurements need. */
export function buildArchives({ base, streams, exportSeconds, rounds, clip }) {
  const root = join(base, 'dvr');
  mkdirSync(root, { recursive: true });
  const t0 = performance.now();
  // Real media: the clip looped and cut in 2 s segments, one more per export round (each round asks
  // for a range 2 s later, so no round is served from another's shared export).
  const cut = cutSegments(clip, 20, exportSeconds + 4 * rounds + 4, join(base, 'cut'));
  const cutMs = performance.now() - t0;
  const now = Date.now();
  // Both end a minute ago, on a 2 s boundary, so the whole range is inside `dvr ROOT 2d`.
  const dayStartMs = Math.floor((now - DAY_MS - 60_000) / 2000) * 2000;
  const cutMsTotal = cut.reduce((sum, c) => sum + c.durationMs, 0);
  const exportStartMs = Math.floor((now - cutMsTotal - 60_000) / 2000) * 2000;
  const t1 = performance.now();
  // A segment of exactly 2 s (the first one holds the clip's audio lead-in: 2.08 s).
  const twoSeconds = cut.find((c) => c.durationMs === 2000) ?? cut[0];
  for (let i = 0; i < streams; i++) buildDay(root, `a${i}`, twoSeconds.file, dayStartMs);
  const dayMs = performance.now() - t1;
  const placed = placeSegments(join(root, 'x'), cut, exportStartMs);
  return {
    root,
    cut,
    placed,
    cutMs,
    dayMs,
    dayStartMs,
    names: Array.from({ length: streams }, (_, i) => `a${i}`),
  };
}

/** Spawn → the API answers → every archive in read_config's dvr_info → every ranges.json 200. */
export async function measureRestart(fixture) {
  const { root, names } = fixture;
  const all = [...names, 'x'];
  const config =
    'http {http};\nedit_auth admin bench-pw;\n' +
    all.map((name) => `stream ${name} {\n  url publish://;\n  dvr ${root} 2d;\n}\n`).join('');
  const t0 = performance.now();
  const sluice = await startSluice(config);
  const apiMs = performance.now() - t0;
  let infoMs;
  let rangesMs;
  const ready = new Set();
  while (infoMs === undefined || rangesMs === undefined) {
    if (performance.now() - t0 > 30 * 60_000) throw new Error('archives not read back within 30 minutes');
    if (infoMs === undefined) {
      const streams = (await (await sluice.api('/flussonic/api/read_config')).json()).streams;
      // A whole day read back: dvr_info covers it (the export stream x is shorter).
      const whole = (name) => (streams[name]?.stats?.dvr_info?.duration ?? 0) >= (name === 'x' ? 1 : 86_000);
      if (all.every(whole)) infoMs = performance.now() - t0;
    }
    if (rangesMs === undefined) {
      const waiting = all.filter((name) => !ready.has(name));
      const answers = await Promise.all(
        waiting.map((name) =>
          fetch(`${sluice.base}/${name}/ranges.json`).then(
            async (r) => r.ok && (await r.json()).ranges.length > 0,
          ),
        ),
      );
      waiting.forEach((name, i) => answers[i] && ready.add(name));
      if (ready.size === all.length) rangesMs = performance.now() - t0;
    }
    await sleep(50);
  }
  const find = timeShell(`find ${root} -type f | wc -l`);
  return { sluice, apiMs, infoMs, rangesMs, findMs: find.ms, files: Number(find.out) };
}

const sizeOf = (text) => ({ bytes: Buffer.byteLength(text), segments: text.split('#EXTINF').length - 1 });

/** 20 GETs of a 24 h archive playlist, beside the same bytes as a static file from nginx. */
export async function measurePlaylist(sluice, fixture, base, requests = 20) {
  const url = `${sluice.base}/${fixture.names[0]}/archive-${seconds(fixture.dayStartMs)}-86400.m3u8`;
  const timeGets = async (target) => {
    const times = [];
    let text = '';
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      const response = await fetch(target);
      text = await response.text();
      if (!response.ok) throw new Error(`${target}: ${response.status} ${text}`);
      times.push(performance.now() - t0);
    }
    return { ...medianP95(times), text };
  };
  const product = await timeGets(url);
  const dir = join(base, 'nginx-root');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'day.m3u8'), product.text);
  // nginx's workers run as another user when started by root: the file must be theirs to read.
  chmodSync(base, 0o755);
  chmodSync(dir, 0o755);
  if (spawnSync('sh', ['-c', 'command -v nginx']).status !== 0) {
    // No nginx here: the reference is reading the same bytes with cat (no HTTP at all).
    const times = Array.from({ length: requests }, () => timeShell(`cat ${dir}/day.m3u8 > /dev/null`).ms);
    return {
      product,
      reference: { ...medianP95(times), what: 'cat of the same bytes' },
      ...sizeOf(product.text),
    };
  }
  const port = await freePort();
  const nginx = await startNginx(
    'http { sendfile on; access_log off; ' +
      `server { listen 127.0.0.1:${port}; location / { root ${dir}; } } }`,
  );
  try {
    const reference = await timeGets(`http://127.0.0.1:${port}/day.m3u8`);
    return {
      product,
      reference: { ...reference, what: 'nginx, the same bytes as a static file' },
      ...sizeOf(product.text),
    };
  } finally {
    await nginx.stop();
    spawnSync('rm', ['-rf', nginx.dir]);
  }
}

/**
 * MP4 exports of `exportSeconds` of real media, rounds alternating with plain ffmpeg on the same
 * segment files (the reference: the product's own argv, concat demuxer, -c copy, +faststart).
 */
export async function measureExport(sluice, fixture, base, exportSeconds, rounds) {
  const runs = { product: [], reference: [], mediaSeconds: [], referenceMediaSeconds: [] };
  let bytes = 0;
  for (let r = 0; r < rounds; r++) {
    // Each round starts at a later segment, so none is served from another round's shared export.
    const fromS = Math.ceil(fixture.placed[r].startMs / 1000);
    let t0 = performance.now();
    const response = await fetch(`${sluice.base}/x/archive-${fromS}-${exportSeconds}.mp4`);
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw new Error(`export: ${response.status} ${body.toString()}`);
    runs.product.push(performance.now() - t0);
    bytes = body.length;
    const out = join(base, `export-${r}.mp4`);
    writeFileSync(out, body);
    runs.mediaSeconds.push(probeSeconds(out));
    // The same files the product reads: the archive's segments that overlap the range.
    const [fromMs, toMs] = [fromS * 1000, (fromS + exportSeconds) * 1000];
    const files = fixture.placed
      .filter((p) => p.startMs < toMs && p.startMs + p.durationMs > fromMs)
      .map((p) => p.path);
    const list = join(base, `list-${r}.txt`);
    writeFileSync(list, files.map((f) => `file '${f}'\n`).join(''));
    const ref = join(base, `reference-${r}.mp4`);
    t0 = performance.now();
    const result = spawnSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'concat', '-safe', '0', '-i', list],
      ...['-map', '0:v?', '-map', '0:a?', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', '-y', ref],
    ]);
    if (result.status !== 0) throw new Error(`reference ffmpeg: ${result.stderr}`);
    runs.reference.push(performance.now() - t0);
    runs.referenceMediaSeconds.push(probeSeconds(ref));
    spawnSync('rm', ['-f', out, ref, list]);
  }
  return { ...runs, bytes };
}
