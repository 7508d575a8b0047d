// Publish ingest: server CPU per publisher of a ~2 Mbit/s 720p stream (H.264 + AAC) over HTTP
// MPEG-TS (PUT /{name}/mpegts) and over SRT (a stream's srt_publish port), beside RTMP publishers
// (reference) in the same run. PUBLISHERS publishers of each protocol in turn (default 4), each an
// ffmpeg sending the same clip at its own pace with -c copy. Figures: CPU of the server process and
// of the ffmpeg children it runs (SRT: a libsrt listener per publish), % of one core, per publisher.
import { spawn, spawnSync } from 'node:child_process';
import { cpuSeconds, freePort, makeClip, sleep, startSluice, stop } from '../lib/media.mjs';

const PUBLISHERS = Number(process.env.INGEST_PUBLISHERS ?? 4);
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;

/** Live child processes of `pid` (the server's ffmpeg children). */
function childrenOf(pid) {
  const out = spawnSync('sh', ['-c', `cat /proc/${pid}/task/*/children 2>/dev/null`]).stdout.toString();
  return out.split(/\s+/).filter(Boolean).map(Number);
}

/** CPU seconds of a process (user + system), 0 once it is gone. */
function ownCpu(pid) {
  const stat = spawnSync('cat', [`/proc/${pid}/stat`]).stdout.toString();
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The server's CPU seconds so far, with its reaped and its running children. */
function serverCpu(pid) {
  return cpuSeconds(pid) + childrenOf(pid).reduce((sum, child) => sum + ownCpu(child), 0);
}

function publisher(clip, out) {
  return spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      clip,
      '-c',
      'copy',
      ...out,
    ],
    { stdio: 'ignore' },
  );
}

async function aliveCount(server, names, location) {
  const config = await (await server.api('/flussonic/api/read_config')).json();
  const streams = location ? (config.lives?.[location]?.streams ?? {}) : (config.streams ?? {});
  return names.filter((n) => streams[n]?.stats?.alive && streams[n]?.stats?.published_from).length;
}

async function measure(server, seconds, clip, names, location, outFor) {
  const children = names.map((name, i) => publisher(clip, outFor(name, i)));
  try {
    const deadline = Date.now() + 30_000;
    while ((await aliveCount(server, names, location)) < names.length && Date.now() < deadline)
      await sleep(500);
    const alive = await aliveCount(server, names, location);
    // Changing the cpu sample set mid-way (an SRT listener restarting) is avoided by a settle time.
    await sleep(2000);
    const cpu0 = serverCpu(server.child.pid);
    const started = Date.now();
    await sleep(seconds * 1000);
    const elapsed = (Date.now() - started) / 1000;
    const cpu = ((serverCpu(server.child.pid) - cpu0) / elapsed) * 100;
    return { cpu, perPublisher: cpu / names.length, alive };
  } finally {
    await Promise.all(children.map((c) => stop(c)));
  }
}

export async function run({ seconds }) {
  const clip = makeClip(20);
  const rtmpPort = await freePort();
  const srtPorts = await Promise.all(Array.from({ length: PUBLISHERS }, () => freePort()));
  const srtStreams = srtPorts
    .map(
      (port, i) =>
        `stream srt${i} {\n  publish_enabled true;\n  static true;\n  srt_publish { port ${port}; }\n}\n`,
    )
    .join('');
  const server = await startSluice(
    `http {http};\nedit_auth admin bench-pw;\nrtmp ${rtmpPort};\nlive live {\n  source_timeout 3;\n}\n${srtStreams}`,
  );
  try {
    const names = (p) => Array.from({ length: PUBLISHERS }, (_, i) => `live/${p}${i}`);
    const rtmp = await measure(server, seconds, clip, names('r'), 'live', (name) => [
      '-f',
      'flv',
      `rtmp://127.0.0.1:${rtmpPort}/${name}`,
    ]);
    const http = await measure(server, seconds, clip, names('h'), 'live', (name) => [
      ...['-f', 'mpegts', '-method', 'PUT'],
      `${server.base}/${name}/mpegts`,
    ]);
    const srtNames = srtPorts.map((_, i) => `srt${i}`);
    const srt = await measure(server, seconds, clip, srtNames, undefined, (_, i) => [
      '-f',
      'mpegts',
      `srt://127.0.0.1:${srtPorts[i]}`,
    ]);
    const row = (label, m) =>
      console.log(
        `${label.padEnd(44)} ${m.cpu.toFixed(1).padStart(5)}% CPU  ${m.perPublisher.toFixed(2).padStart(5)}% CPU/publisher  (${m.alive}/${PUBLISHERS} published)`,
      );
    console.log(
      `${PUBLISHERS} publishers of a 720p ~2 Mbit/s clip (H.264 + AAC), server + its ffmpeg children:`,
    );
    row('RTMP publish (reference)', rtmp);
    row('HTTP MPEG-TS publish (PUT /{name}/mpegts)', http);
    row('SRT publish (srt_publish port, libsrt ffmpeg)', srt);
  } finally {
    await server.stop();
  }
}
