// Ad insertion (issue 25), each figure beside its reference measured in the same run:
// 1. how late each switch is against the slot time: to the ad (EXT-X-DATERANGE START-DATE, the
//    instant the ad went on air, vs the slot start) and back to live (the PROGRAM-DATE-TIME of the
//    cue-in segment vs the slot end), over at least 50 slots; reference: the live GOP (2 s), the
//    target being "at the first keyframe after the boundary", so at most one GOP late;
// 2. server CPU (node + its ffmpeg children) per stream while N streams play an ad at once, beside
//    the same N streams without ads, in windows back to back (before, during, after).
// `npm run bench -- ad-injector [--streams 100] [--seconds 10]`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, startSluice } from './lib/media.mjs';
import { cpuSeconds } from './lib/media.mjs';

const arg = (name) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const N = Number(arg('--streams')) || 100;
const WINDOW_S = Number(arg('--seconds')) || 10;
const GOP_MS = 2000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const row = (...cells) => console.log(`| ${cells.join(' | ')} |`);
const ffmpeg = (args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

// A small live clip (keyframe every 2 s) played by each stream as a file source, and the ad: another size.
const clip = join(tmpdir(), 'sluice-bench-ad-live-320.ts');
if (!existsSync(clip))
  ffmpeg([
    ...[
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=25:duration=30',
      '-f',
      'lavfi',
      '-i',
      'sine=duration=30',
    ],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0'],
    ...['-b:v', '300k', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-f', 'mpegts', clip],
  ]);

let config = 'http {http};\nedit_auth admin bench-pw;\n';
for (let i = 0; i < N; i++) config += `stream s${i} {\n  url file://${clip};\n  static true;\n}\n`;
const sluice = await startSluice(config);
process.on('exit', () => sluice.child.exitCode === null && sluice.child.kill('SIGKILL'));
const post = async (path, body) => {
  const r = await sluice.api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
};
const vodDir = join(sluice.dir, 'vod');
await mkdir(vodDir, { recursive: true });
ffmpeg([
  ...[
    '-f',
    'lavfi',
    '-i',
    'smptebars=size=160x90:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=300',
    '-t',
    '4',
  ],
  ...[
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    join(vodDir, 'spot.mp4'),
  ],
]);
await post('/flussonic/api/modify_config', { vods: { ads: { prefix: 'ads', urls: [{ url: vodDir }] } } });
const hms = (ms) => {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
};
const schedule = (slots) => [{ name: 'brk', slots, files: [{ name: 'ads/spot.mp4', weight: 1 }] }];
await post(
  '/flussonic/api/save_ad_schedules',
  schedule([{ from: hms(Date.now() + 3 * 3600_000), duration: 5 }]),
);
const streams = Object.fromEntries(Array.from({ length: N }, (_, i) => [`s${i}`, { ad_schedule: 'brk' }]));
await post('/flussonic/api/modify_config', { streams });
const playlist = async (i) => {
  const r = await fetch(`${sluice.base}/s${i}/video.m3u8`);
  return r.ok ? r.text() : '';
};
for (let i = 0; i < N; i++) while (!(await playlist(i)).includes('#EXTINF')) await sleep(200);
// The ad is conformed once for the streams' target (ads/conform.ts): wait for the cache to hold it.
while (
  !existsSync(join(sluice.dir, 'ad-cache')) ||
  !execFileSync('ls', [join(sluice.dir, 'ad-cache')])
    .toString()
    .includes('.ts')
)
  await sleep(200);
console.log(`${N} streams running (file sources, 320x180, GOP ${GOP_MS / 1000} s); load average ${load()}`);

/** CPU seconds of the server and its live and reaped children (a child gone mid-read counts 0). */
function treeCpuSeconds(pid) {
  let total;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total = cpuSeconds(pid) + (Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return 0;
  }
  for (const child of execFileSync('sh', ['-c', `pgrep -P ${pid} || true`])
    .toString()
    .split('\n')
    .filter(Boolean))
    total += treeCpuSeconds(Number(child));
  return Number.isFinite(total) ? total : 0;
}
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

const cpuOver = async (seconds) => {
  const [c0, t0] = [treeCpuSeconds(sluice.child.pid), performance.now()];
  await sleep(seconds * 1000);
  return (treeCpuSeconds(sluice.child.pid) - c0) / ((performance.now() - t0) / 1000);
};

/** One slot on every stream at once; returns each stream's switch lateness in and out (ms) and the CPU during it. */
async function slotRound(durationS, measure) {
  const startMs = Math.ceil((Date.now() + 4000) / 1000) * 1000;
  const endMs = startMs + durationS * 1000;
  await post('/flussonic/api/save_ad_schedules', schedule([{ from: hms(startMs), duration: durationS }]));
  const out = new Map();
  const back = new Map();
  const look = async () => {
    for (let i = 0; i < N; i++) {
      const text = await playlist(i);
      const lines = text.split('\n');
      lines.forEach((line, at) => {
        if (!line.includes(`ID="ad-${startMs}"`)) return;
        if (line.includes('X-CUE-OUT'))
          out.set(i, Date.parse(/START-DATE="([^"]+)"/.exec(line)[1]) - startMs);
        if (line.includes('X-CUE-IN')) {
          const pdt = lines
            .slice(0, at)
            .reverse()
            .find((l) => l.startsWith('#EXT-X-PROGRAM-DATE-TIME:'));
          if (pdt) back.set(i, Date.parse(pdt.slice('#EXT-X-PROGRAM-DATE-TIME:'.length)) - endMs);
        }
      });
    }
  };
  while (Date.now() < startMs + 1000) await sleep(100);
  const cpu = measure ? await cpuOver(Math.min(measure, durationS - 2)) : undefined;
  // The cue-out segment is listed once it is cut (a GOP after the switch): looked for until the end.
  while (Date.now() < endMs + 3000) {
    if (out.size < N) await look();
    await sleep(300);
  }
  for (let tries = 0; tries < 6 && back.size < N; tries++) {
    await look();
    await sleep(500);
  }
  return { out: [...out.values()], back: [...back.values()], cpu };
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor(s.length * p))];
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${s.at(-1)} ms (${s.length} slots)`;
};

console.log(
  `\n2. CPU (node + ffmpeg children), windows of ${WINDOW_S} s back to back; load average ${load()}`,
);
const before = await cpuOver(WINDOW_S);
const during = await slotRound(WINDOW_S + 3, WINDOW_S);
const after = await cpuOver(WINDOW_S);
row('window', 'CPU cores', 'per stream (ms CPU / s)');
row('---', '---', '---');
row(`${N} streams, no ads (before)`, before.toFixed(2), ((before / N) * 1000).toFixed(1));
row(`${N} streams, all in an ad slot`, during.cpu.toFixed(2), ((during.cpu / N) * 1000).toFixed(1));
row(`${N} streams, no ads (after)`, after.toFixed(2), ((after / N) * 1000).toFixed(1));
const extra = during.cpu - (before + after) / 2;
console.log(
  `an inserted stream costs ${((extra / N) * 1000).toFixed(1)} ms CPU/s more than a plain one; load average ${load()}`,
);

const ins = [...during.out];
const outs = [...during.back];
for (let round = 0; ins.length < 50 && round < 50; round++) {
  const r = await slotRound(3, 0);
  ins.push(...r.out);
  outs.push(...r.back);
}
console.log(
  `\n1. switch lateness vs the slot time (reference: one GOP = ${GOP_MS} ms); load average ${load()}`,
);
row('switch', 'lateness', 'within one GOP');
row('---', '---', '---');
row('live → ad (vs slot start)', stats(ins), `${ins.filter((x) => x <= GOP_MS).length}/${ins.length}`);
row('ad → live (vs slot end)', stats(outs), `${outs.filter((x) => x <= GOP_MS).length}/${outs.length}`);
await sluice.stop();
process.exit(0);
