// Shared pieces of the media benches: a 2 Mbit/s clip, the Sluice server, nginx with the RTMP module,
// and CPU and memory read from /proc.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const auth = `Basic ${Buffer.from('admin:bench-pw').toString('base64')}`;
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;

export function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/** A 720p H.264 + AAC clip at a constant ~2 Mbit/s in MPEG-TS, made once and reused. */
export function makeClip(seconds = 20) {
  const path = join(tmpdir(), `sluice-bench-clip-${seconds}s.ts`);
  if (existsSync(path)) return path;
  const result = spawnSync('ffmpeg', [
    ...[
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1280x720:rate=25:duration=${seconds}`,
    ],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '50',
      '-keyint_min',
      '50',
      '-sc_threshold',
      '0',
    ],
    ...['-b:v', '1850k', '-maxrate', '1850k', '-bufsize', '1850k', '-x264-params', 'nal-hrd=cbr'],
    ...['-c:a', 'aac', '-b:a', '96k', '-f', 'mpegts', '-muxrate', '2000k', path],
  ]);
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr}`);
  return path;
}

/** Bytes per second of a clip: its size over its duration as ffprobe reads it. */
export function clipBytesPerSecond(path) {
  const probe = spawnSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration,size',
    '-of',
    'json',
    path,
  ]);
  const { duration, size } = JSON.parse(probe.stdout.toString()).format;
  return Number(size) / Number(duration);
}

/** CPU seconds (user + system) a process and its reaped children have used so far. */
export function cpuSeconds(pid) {
  const stat = spawnSync('cat', [`/proc/${pid}/stat`]).stdout.toString();
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime are fields 14 and 15 of /proc/PID/stat; counted from field 3 here.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident memory of a process, in MB. */
export function rssMb(pid) {
  const status = spawnSync('cat', [`/proc/${pid}/status`]).stdout.toString();
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Starts the built server on `configText` (with {http} replaced); resolves once it answers. `main`:
 * another build's main.js (a before/after comparison in one run).
 */
export async function startSluice(configText, main = 'packages/server/dist/main.js') {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-'));
  const configPath = join(dir, 'sluice.conf');
  await writeFile(configPath, configText.replaceAll('{http}', String(port)));
  const child = spawn(
    process.execPath,
    // BENCH_SERVER_NODE_ARGS: flags for the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
    [
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...[main, '--config', configPath, '--host', '127.0.0.1'],
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited');
    const ok = await fetch(`${base}/flussonic/api/server`, { headers: { authorization: auth } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const api = (path, init = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: auth, ...init.headers } });
  return { child, port, base, dir, api, stop: () => stop(child) };
}

/** Starts nginx in the foreground on a config of its own; `body` goes in the main context. */
export async function startNginx(body) {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-nginx-'));
  const conf = join(dir, 'nginx.conf');
  await writeFile(
    conf,
    `load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;\ndaemon off;\nmaster_process on;\nworker_processes auto;\n` +
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 4096; }\n${body}\n`,
  );
  const child = spawn('nginx', ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  await new Promise((r) => setTimeout(r, 500));
  if (child.exitCode !== null) throw new Error('nginx exited: see its error log');
  const workers = () =>
    spawnSync('pgrep', ['-P', String(child.pid)])
      .stdout.toString()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  return { child, dir, workers, stop: () => stop(child) };
}

export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
