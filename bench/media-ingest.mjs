// Ingest at scale: N live 2 Mbit/s MPEG-TS streams over UDP, packaged to HLS by Sluice; then, in the
// same run, the same N streams pushed over RTMP into nginx with the RTMP module (hls on) as the
// reference. Prints how many streams hold real time, and CPU and memory per stream, for both.
// Usage: npm run bench -- media-ingest [N=100] [SECONDS=30]   (SLUICE_ONLY=1: Sluice alone, no reference)
// RTMP-publish mode (Sluice's RTMP ingest beside nginx-rtmp's, both fed RTMP; see lib/ingest-rtmp.mjs):
//        npm run bench -- media-ingest rtmp [N=50] [SECONDS=30]
import { spawn, spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  clipBytesPerSecond,
  cpuSeconds,
  freePort,
  makeClip,
  rssMb,
  sleep,
  startNginx,
  startSluice,
  stop,
} from './lib/media.mjs';
import { runRtmpIngest } from './lib/ingest-rtmp.mjs';

if (process.argv[2] === 'rtmp') {
  const [n = 50, seconds = 30] = process.argv.slice(3).map(Number);
  await runRtmpIngest({ N: n, SECONDS: seconds, clip: makeClip(20), sluiceOnly: !!process.env.SLUICE_ONLY });
  process.exit(0);
}
const N = Number(process.argv[2] ?? 100);
const SECONDS = Number(process.argv[3] ?? 30);
const clip = makeClip(20);
// The clip's own rate (its bytes over its duration), so it is sent at real time.
const BYTES_PER_SECOND = clipBytesPerSecond(clip);
// 2 s segments: a stream holding real time adds SECONDS / 2 of them; 2 spare for where the window falls.
const expectedSegments = Math.floor(SECONDS / 2) - 2;
/** The sequence number of a playlist's newest segment: it counts segments made, however full the window. */
const sequenceOf = (text) => {
  const first = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text ?? '')?.[1] ?? NaN);
  return first + (text ?? '').split('#EXTINF').length - 2;
};
const cores = (cpu) => `${((cpu / SECONDS) * 100).toFixed(1)}% of a core`;

console.log(
  `${N} streams of ${Math.round((BYTES_PER_SECOND * 8) / 1000)} kbit/s (${clip}), measured over ${SECONDS} s after warm-up`,
);

// ---- Sluice: UDP in, HLS out
const sluice = await startSluice('http {http};\nedit_auth admin bench-pw;\n');
await sleep(1500);
const idleRss = rssMb(sluice.child.pid);
const basePort = 20_000 + (process.pid % 200) * 50;
const streams = {};
for (let i = 0; i < N; i++)
  streams[`s${i}`] = { urls: [{ url: `udp://127.0.0.1:${basePort + i}` }], static: true };
await sluice.api('/flussonic/api/modify_config', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ streams }),
});
const sender = spawn(
  process.execPath,
  ['bench/lib/udp-sender.mjs', clip, String(basePort), String(N), String(BYTES_PER_SECOND)],
  {
    stdio: 'ignore',
  },
);
const readStats = async () => (await (await sluice.api('/flussonic/api/read_config')).json()).streams;
const playlists = () =>
  Promise.all(
    Array.from({ length: N }, (_, i) =>
      fetch(`${sluice.base}/s${i}/video.m3u8`).then((r) => (r.ok ? r.text() : '')),
    ),
  );
for (let t = 0; t < 30; t++) {
  const s = await readStats();
  if (Object.values(s).every((x) => x.stats?.alive)) break;
  await sleep(1000);
}
await sleep(4000);
const cpu0 = cpuSeconds(sluice.child.pid);
const senderCpu0 = cpuSeconds(sender.pid);
const seq0 = (await playlists()).map(sequenceOf);
const bytes0 = Object.fromEntries(
  Object.entries(await readStats()).map(([n, x]) => [n, x.stats?.bytes_in ?? 0]),
);
const window0 = performance.now();
const errored = new Set();
for (let t = 0; t < SECONDS; t += 2) {
  await sleep(2000);
  for (const [name, item] of Object.entries(await readStats()))
    if ((item.stats?.input_error_rate ?? 0) > 0) errored.add(name);
}
const sluiceCpu = cpuSeconds(sluice.child.pid) - cpu0;
const senderCpu = cpuSeconds(sender.pid) - senderCpu0;
const sluiceRss = rssMb(sluice.child.pid);
const seq1 = (await playlists()).map(sequenceOf);
const final = await readStats();
const windowSeconds = (performance.now() - window0) / 1000;
let sluiceHolding = 0;
const bitrates = [];
for (let i = 0; i < N; i++) {
  const stats = final[`s${i}`]?.stats ?? {};
  bitrates.push(stats.bitrate ?? 0);
  const advanced = seq1[i] - seq0[i];
  if (stats.alive && advanced >= expectedSegments && !errored.has(`s${i}`)) sluiceHolding++;
  else if (process.env.BENCH_DEBUG) {
    const received = (stats.bytes_in - bytes0[`s${i}`]) / (BYTES_PER_SECOND * windowSeconds);
    console.log(
      `s${i}: alive ${stats.alive}, ${advanced} segments, ${(received * 100).toFixed(1)}% of the bytes sent`,
    );
  }
}
await stop(sender);
await sluice.stop();
await rm(sluice.dir, { recursive: true, force: true });
bitrates.sort((a, b) => a - b);

if (process.env.SLUICE_ONLY) {
  // Finding Sluice's own limit (N past what N ffmpeg pushers into nginx could take on this machine).
  console.log(
    `Sluice alone: ${sluiceHolding} / ${N} holding real time; CPU ${cores(sluiceCpu)}; RSS ${sluiceRss.toFixed(0)} MB`,
  );
  console.log(
    `memory per stream ${((sluiceRss - idleRss) / N).toFixed(2)} MB; UDP sender ${cores(senderCpu)}`,
  );
  process.exit(0);
}

// ---- nginx-rtmp: RTMP in (ffmpeg pushers), HLS out
const rtmpPort = await freePort();
const hlsPath = `/dev/shm/sluice-bench-nginx-hls-${process.pid}`;
const nginx = await startNginx(
  `rtmp { server { listen 127.0.0.1:${rtmpPort}; application live { live on; hls on; hls_path ${hlsPath}; hls_fragment 2s; hls_playlist_length 8s; } } }`,
);
await sleep(500);
const nginxPids = () => [nginx.child.pid, ...nginx.workers()];
const nginxIdleRss = nginxPids().reduce((sum, pid) => sum + rssMb(pid), 0);
const pushers = Array.from({ length: N }, (_, i) =>
  spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      clip,
      '-c',
      'copy',
      '-f',
      'flv',
      `rtmp://127.0.0.1:${rtmpPort}/live/s${i}`,
    ],
    { stdio: 'ignore' },
  ),
);
const nginxPlaylists = () =>
  Promise.all(
    Array.from({ length: N }, (_, i) => readFile(join(hlsPath, `s${i}.m3u8`), 'utf8').catch(() => '')),
  );
for (let t = 0; t < 30; t++) {
  if ((await nginxPlaylists()).every((p) => p.includes('#EXTINF'))) break;
  await sleep(1000);
}
await sleep(4000);
const nginxCpu0 = nginxPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
const pusherCpu0 = pushers.reduce((sum, p) => sum + cpuSeconds(p.pid), 0);
const nseq0 = (await nginxPlaylists()).map(sequenceOf);
await sleep(SECONDS * 1000);
const nginxCpu = nginxPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0) - nginxCpu0;
const pusherCpu = pushers.reduce((sum, p) => sum + cpuSeconds(p.pid), 0) - pusherCpu0;
const nginxRss = nginxPids().reduce((sum, pid) => sum + rssMb(pid), 0);
// nginx keeps its segments in files (here on tmpfs, which is memory too): counted beside its RSS.
const nginxFilesMb = Number(spawnSync('du', ['-sk', hlsPath]).stdout.toString().split('\t')[0]) / 1024;
const pusherRss = pushers.reduce((sum, p) => sum + rssMb(p.pid), 0);
const nseq1 = (await nginxPlaylists()).map(sequenceOf);
const nginxHolding = nseq1.filter((s, i) => s - nseq0[i] >= expectedSegments).length;
await Promise.all(pushers.map((p) => stop(p)));
await nginx.stop();
await rm(hlsPath, { recursive: true, force: true });
await rm(nginx.dir, { recursive: true, force: true });

const table = [
  ['', 'Sluice (UDP in)', 'nginx-rtmp (RTMP in)'],
  ['streams holding real time', `${sluiceHolding} / ${N}`, `${nginxHolding} / ${N}`],
  ['server CPU, all streams', cores(sluiceCpu), cores(nginxCpu)],
  ['server CPU per stream', cores(sluiceCpu / N), cores(nginxCpu / N)],
  ['server memory (RSS)', `${sluiceRss.toFixed(0)} MB`, `${nginxRss.toFixed(0)} MB`],
  ['segments held in memory', 'in the RSS above', `${nginxFilesMb.toFixed(0)} MB of files on tmpfs`],
  [
    'memory per stream',
    `${((sluiceRss - idleRss) / N).toFixed(2)} MB`,
    `${((nginxRss - nginxIdleRss + nginxFilesMb) / N).toFixed(2)} MB (RSS + segment files)`,
  ],
  [
    'feeding side (not counted above)',
    `UDP sender: ${cores(senderCpu)}`,
    `${N} ffmpeg pushers: ${cores(pusherCpu)}, ${pusherRss.toFixed(0)} MB`,
  ],
];
for (const row of table) console.log(row.map((c, i) => c.padEnd(i === 0 ? 34 : 36)).join(''));
console.log(
  `Sluice bitrate per stream (kbit/s): min ${bitrates[0]}, median ${bitrates[Math.floor(N / 2)]}, max ${bitrates[N - 1]}; ` +
    `streams with continuity errors during the window: ${errored.size}`,
);
console.log(
  `holding real time: alive, ≥ ${expectedSegments} new segments in ${SECONDS} s, no continuity errors (Sluice)`,
);
