// The recording half of the DVR bench: N live UDP MPEG-TS streams into one Sluice, measured over a
// window without DVR, then with `dvr ROOT 1h` on every stream, then without again (the two windows
// without DVR show how much the figures drift on a machine shared with other work).
import { spawn, spawnSync } from 'node:child_process';
import { cpuSeconds, sleep, startSluice, stop } from './media.mjs';
import { treeBytes, writeBytes } from './dvr-fixture.mjs';

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;

/** CPU seconds of a process, its reaped children (cutime, cstime) and its live children. */
export function treeCpuSeconds(pid) {
  const stat = spawnSync('cat', [`/proc/${pid}/stat`]).stdout.toString();
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const reaped = (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  const children = spawnSync('pgrep', ['-P', String(pid)])
    .stdout.toString()
    .split('\n')
    .filter(Boolean)
    .map(Number);
  return cpuSeconds(pid) + reaped + children.reduce((sum, child) => sum + treeCpuSeconds(child), 0);
}

/**
 * Records N streams of `clip` sent at real time. Returns each window's CPU, bytes received
 * (stats bytes_in), bytes that reached the DVR root and the server's write_bytes.
 */
export async function measureRecording({ n, seconds, root, clip, bytesPerSecond }) {
  const sluice = await startSluice('http {http};\nedit_auth admin bench-pw;\n');
  const basePort = 40_000 + (process.pid % 50) * 400;
  const streams = {};
  for (let i = 0; i < n; i++)
    streams[`s${i}`] = { urls: [{ url: `udp://127.0.0.1:${basePort + i}` }], static: true };
  const modify = (body) =>
    sluice.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await modify({ streams });
  const sender = spawn(
    process.execPath,
    ['bench/lib/udp-sender.mjs', clip, String(basePort), String(n), String(bytesPerSecond)],
    { stdio: 'ignore' },
  );
  const readStats = async () => (await (await sluice.api('/flussonic/api/read_config')).json()).streams;
  const waitAll = async (what, test) => {
    for (let t = 0; t < 120; t++) {
      const s = Object.values(await readStats());
      if (s.length === n && s.every((x) => test(x.stats ?? {}))) return;
      await sleep(1000);
    }
    throw new Error(`not every stream ${what} within 2 minutes`);
  };

  const window = async (label) => {
    // Warm-up: the window starts with every stream settled.
    await sleep(4000);
    const take = async () => {
      const stats = await readStats();
      return {
        cpu: treeCpuSeconds(sluice.child.pid),
        written: writeBytes(sluice.child.pid),
        received: Object.values(stats).reduce((sum, x) => sum + (x.stats?.bytes_in ?? 0), 0),
        alive: Object.values(stats).filter((x) => x.stats?.alive).length,
        dvrErrors: Object.values(stats).filter((x) => x.stats?.dvr_error).length,
        disk: treeBytes(root),
        at: performance.now(),
      };
    };
    const a = await take();
    await sleep(seconds * 1000);
    const b = await take();
    return {
      label,
      windowSeconds: (b.at - a.at) / 1000,
      cpu: b.cpu - a.cpu,
      received: b.received - a.received,
      written: b.written - a.written,
      diskBytes: b.disk.bytes - a.disk.bytes,
      diskAllocated: b.disk.allocated - a.disk.allocated,
      files: b.disk.files - a.disk.files,
      alive: b.alive,
      dvrErrors: Math.max(a.dvrErrors, b.dvrErrors),
    };
  };

  try {
    await waitAll('came alive', (s) => s.alive);
    const before = await window('without DVR');
    const withDvr = {};
    for (let i = 0; i < n; i++) withDvr[`s${i}`] = { dvr: { root, dvr_limit: 3600 } };
    await modify({ streams: withDvr });
    // Recording: every stream has a segment on disk (dvr_info appears with the first one).
    await waitAll('recorded a segment', (s) => s.dvr_info?.duration > 0);
    const recording = await window('with DVR');
    const without = {};
    for (let i = 0; i < n; i++) without[`s${i}`] = { dvr: null };
    await modify({ streams: without });
    const after = await window('without DVR, again');
    return [before, recording, after];
  } finally {
    await stop(sender);
    await sluice.stop();
    spawnSync('rm', ['-rf', sluice.dir]);
  }
}
