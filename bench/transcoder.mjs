// Transcoding: CPU per rendition (360p at 700 kbit/s, 720p at 2.5 Mbit/s) of a live 720p 2 Mbit/s
// stream through Sluice, and how many 360p renditions hold real time on this machine; beside plain
// ffmpeg doing the same work in the same run (the same clip read at real time, the very argv of
// Sluice's transcoder from its argument builder, output to /dev/null).
// Usage: npm run bench -- transcoder [SECONDS=20] [MAX_360P_RENDITIONS=64]
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { transcoderArgs } from '../packages/server/dist/engine/ffmpeg/transcoder-args.js';
import { SpeedMeter } from '../packages/server/dist/transcoder/speed-meter.js';
import { cpuSeconds, makeClip, sleep, startSluice, stop } from './lib/media.mjs';

const SECONDS = Number(process.argv[2] ?? 20);
const MAX_RENDITIONS = Number(process.argv[3] ?? 64);
const WARMUP_MS = 8000;
const clip = makeClip(20);
const cores = (cpu) => `${((cpu / SECONDS) * 100).toFixed(0)}% of a core`;
/**
 * CPU per second of media made: a transcoder catching up after a stall (a loaded machine) makes
 * more than a second of media per second for a while, and spends CPU accordingly.
 */
const perMedia = (cpu, speed) => `${((cpu / (SECONDS * speed)) * 100).toFixed(0)}% of a core`;
const track360 = { bitrate: 700_000, codec: 'h264', size: { width: -1, height: 360 } };
const track720 = { bitrate: 2_500_000, codec: 'h264', size: { width: -1, height: 720 } };
const transcoderOf = (tracks) => ({
  global: { hw: 'cpu' },
  audio: { bitrate: 64_000, codec: 'aac' },
  video: Object.fromEntries(tracks.map((t, i) => [String(i), t])),
});

/**
 * Media seconds made per wall second: the playlist is polled every 250 ms and each new segment's
 * arrival time noted; the durations of the segments after the first arrival, over the wall time
 * from the first arrival to the last.
 */
async function playlistSpeed(url, ms) {
  const arrivals = new Map();
  const deadline = performance.now() + ms;
  let known;
  while (performance.now() < deadline) {
    const text = await fetch(url).then((r) => (r.ok ? r.text() : ''));
    const first = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? NaN);
    const durations = [...text.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
    durations.forEach((d, i) => {
      const seq = first + i;
      if (known !== undefined && seq > known && !arrivals.has(seq))
        arrivals.set(seq, { at: performance.now(), d });
    });
    if (known === undefined && durations.length > 0) known = first + durations.length - 1;
    await sleep(250);
  }
  const seen = [...arrivals.values()];
  if (seen.length < 2) return { speed: 0, segments: seen.length };
  const made = seen.slice(1).reduce((sum, s) => sum + s.d, 0);
  return { speed: made / ((seen[seen.length - 1].at - seen[0].at) / 1000), segments: seen.length };
}

/** The Sluice children of a server process, by their command line. */
function children(pid) {
  const pids = spawnSync('pgrep', ['-P', String(pid)])
    .stdout.toString()
    .split('\n')
    .filter(Boolean);
  return pids.map((p) => ({
    pid: Number(p),
    cmd: readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0'),
  }));
}

/** Sluice: a file:// stream (the clip, looped at real time) with a transcoder of these tracks. */
async function throughSluice(tracks) {
  const sluice = await startSluice('http {http};\nedit_auth admin bench-pw;\n');
  await sluice.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      streams: { b: { urls: [{ url: `file://${clip}` }], static: true, transcoder: transcoderOf(tracks) } },
    }),
  });
  const playlist = `${sluice.base}/b/tracks-v1/video.m3u8`;
  for (let t = 0; t < 60; t++) {
    if ((await fetch(playlist)).ok) break;
    await sleep(1000);
  }
  await sleep(WARMUP_MS);
  const kids = children(sluice.child.pid);
  const transcoder = kids.find((k) => k.cmd.includes('-progress'));
  const source = kids.find((k) => !k.cmd.includes('-progress'));
  const before = {
    node: cpuSeconds(sluice.child.pid),
    transcoder: cpuSeconds(transcoder.pid),
    source: cpuSeconds(source.pid),
  };
  const { speed, segments } = await playlistSpeed(playlist, SECONDS * 1000);
  const config = await (await sluice.api('/flussonic/api/read_config')).json();
  const error = config.streams?.b?.stats?.source_error;
  const used = {
    node: cpuSeconds(sluice.child.pid) - before.node,
    transcoder: cpuSeconds(transcoder.pid) - before.transcoder,
    source: cpuSeconds(source.pid) - before.source,
  };
  await sluice.stop();
  await rm(sluice.dir, { recursive: true, force: true });
  return { ...used, total: used.node + used.transcoder + used.source, speed, segments, error };
}

/** Plain ffmpeg: the clip read at real time, Sluice's transcoder argv, output thrown away. */
async function plainFfmpeg(tracks) {
  const args = transcoderArgs({
    config: transcoderOf(tracks),
    keyframeSeconds: 2,
    logoFile: () => undefined,
    video: { codec: 'h264', width: 1280, height: 720 },
    audio: true,
  });
  const input = args.indexOf('pipe:0');
  // The same input Sluice plays: the clip, looped, at its own pace.
  args.splice(input - 3, 4, '-re', '-stream_loop', '-1', '-i', clip);
  // -y: /dev/null "exists", and ffmpeg would refuse to write to it.
  args.splice(args.length - 1, 1, '-y', '/dev/null');
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const meter = new SpeedMeter(SECONDS * 1000);
  let partial = '';
  child.stderr.on('data', (d) => {
    const lines = (partial + d.toString()).split(/[\r\n]/);
    partial = lines.pop();
    for (const line of lines) meter.line(line.trim());
  });
  await sleep(WARMUP_MS);
  const cpu0 = cpuSeconds(child.pid);
  meter.reset();
  await sleep(SECONDS * 1000 + 1200);
  const cpu = cpuSeconds(child.pid) - cpu0;
  const speed = meter.speed() ?? 0;
  await stop(child);
  return { total: cpu, speed };
}

console.log(
  `input: ${clip} (1280x720 25 fps H.264 + AAC, ~2 Mbit/s), ${SECONDS} s windows after ${WARMUP_MS / 1000} s warm-up`,
);
console.log(
  `machine: ${spawnSync('nproc').stdout.toString().trim()} cores, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at start (shared with other work)`,
);

const rows = [
  [
    'CPU per second of media',
    'Sluice (source+server+ffmpeg)',
    'Sluice transcoder ffmpeg',
    'plain ffmpeg',
    'speed Sluice / plain',
  ],
];
for (const [label, track] of [
  ['one 360p rendition (700 kbit/s)', track360],
  ['one 720p rendition (2.5 Mbit/s)', track720],
]) {
  const s = await throughSluice([track]);
  const p = await plainFfmpeg([track]);
  rows.push([
    label,
    perMedia(s.total, s.speed),
    perMedia(s.transcoder, s.speed),
    perMedia(p.total, p.speed),
    `${s.speed.toFixed(2)}x / ${p.speed.toFixed(2)}x`,
  ]);
}

const holds = (run) => run.speed >= 0.95 && !run.error;
/**
 * The most 360p renditions that hold real time: doubling until one fails, then halving the gap.
 * Each count is a fresh run of 20 s (or SECONDS) after warm-up.
 */
async function mostHolding(run, label) {
  const lines = [];
  const attempt = async (n) => {
    const r = await run(Array.from({ length: n }, () => track360));
    lines.push(
      `${label} ${n} x 360p: ${r.speed.toFixed(2)}x, ${cores(r.total)}${r.error ? ` (${r.error})` : ''}`,
    );
    return holds(r);
  };
  let good = 0;
  let bad;
  for (let n = 1; n <= MAX_RENDITIONS; n *= 2) {
    if (await attempt(n)) good = n;
    else {
      bad = n;
      break;
    }
  }
  while (bad !== undefined && bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (await attempt(mid)) good = mid;
    else bad = mid;
  }
  return { most: good, lines, capped: bad === undefined };
}
const sluiceScale = await mostHolding(throughSluice, 'Sluice');
const plainScale = await mostHolding(plainFfmpeg, 'plain ffmpeg');

for (const row of rows) console.log(row.map((c, i) => String(c).padEnd(i === 0 ? 34 : 28)).join(''));
console.log('');
for (const line of [...sluiceScale.lines, ...plainScale.lines]) console.log(line);
const most = (r) => `${r.most}${r.capped ? ` (the most tried: MAX_360P_RENDITIONS=${MAX_RENDITIONS})` : ''}`;
console.log(
  `360p renditions holding real time (≥ 0.95x over ${SECONDS} s, no transcoder error): Sluice ${most(sluiceScale)}, plain ffmpeg ${most(plainScale)}`,
);
console.log(
  'Sluice runs every rendition of a stream in one ffmpeg: one decode, a scaler and an x264 per rendition.',
);
