import { spawn, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parsePidStat } from './proc-readers.js';
import { SystemSampler } from './system-samplers.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'sluice-sampler-'));
const sampler = new SystemSampler({ paths: () => [dir, join(dir, 'dvr-not-yet'), '/proc/..'] });
afterAll(() => {
  sampler.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SystemSampler against independent readings', () => {
  it('machine CPU matches vmstat over the same second (100 − id − wa) within a few points', async () => {
    const vmstat = spawn('vmstat', ['1', '2']);
    const rows: number[][] = [];
    let ours = 0;
    for await (const line of createInterface({ input: vmstat.stdout })) {
      const f = line.trim().split(/\s+/);
      if (!/^\d/.test(f[0] ?? '')) continue;
      rows.push(f.map(Number));
      // The first data row is since boot: our interval starts with it and ends with the second.
      const sample = await sampler.sample(Date.now());
      if (rows.length === 2) ours = sample.cpu_usage;
    }
    const [, second] = rows as [number[], number[]];
    // vmstat columns: … us sy id wa st (the last five; newer procps add gu after st).
    const id = second[14]!;
    const wa = second[15]!;
    expect(Math.abs(ours - (100 - id - wa))).toBeLessThan(6);
  });

  it('memory matches free: available, used = total − available, usage %', async () => {
    const [sample, free] = await Promise.all([sampler.sample(Date.now()), run('free', ['-b'])]);
    const mem = free.stdout
      .split('\n')
      .find((l) => l.startsWith('Mem:'))!
      .split(/\s+/)
      .map(Number);
    const total = mem[1]!;
    const available = mem[6]!;
    const slack = total * 0.02; // others allocate between the two readings
    expect(Math.abs(sample.total_memavail - available)).toBeLessThan(slack);
    expect(Math.abs(sample.total_memused - (total - available))).toBeLessThan(slack);
    expect(sample.total_memusage).toBeCloseTo(((total - available) / total) * 100, 0);
  });

  it('partitions match df for the paths given, one per filesystem, a missing folder counted where it would be', async () => {
    const [sample, df] = await Promise.all([
      sampler.sample(Date.now()),
      run('df', ['-B1', '--output=size,avail,pcent', dir]),
    ]);
    const [size, avail, pcent] = df.stdout.trim().split('\n')[1]!.trim().split(/\s+/);
    const mine = sample.partitions.find((p) => p.path === dir)!;
    expect(mine.total_bytes).toBe(Number(size));
    expect(Math.abs(mine.free_bytes - Number(avail))).toBeLessThan(256 * 1024 * 1024);
    // df rounds Use% up.
    expect(Math.abs(Math.ceil(mine.usage) - parseInt(pcent!, 10))).toBeLessThanOrEqual(1);
    // dir/dvr-not-yet lives on the same filesystem as dir: not listed twice.
    expect(sample.partitions.filter((p) => p.path.startsWith(dir))).toHaveLength(1);
  });

  it('a busy grandchild process raises the server CPU figure by what it burns', async () => {
    // A child that starts a busy grandchild: the walk must reach below direct children.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "const c=require('child_process').spawn(process.execPath,['-e','for(;;){}'],{stdio:'inherit'});console.log(c.pid);setInterval(()=>{},1e6)",
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const grandchild = Number(
        await new Promise<string>((ok) => child.stdout.once('data', (d: Buffer) => ok(String(d)))),
      );
      const ticks = () => parsePidStat(readFileSync(`/proc/${grandchild}/stat`, 'utf8'))!.cpuTicks;
      await sampler.sample(Date.now());
      const self0 = process.cpuUsage();
      const t0 = ticks();
      const wall0 = performance.now();
      // At least 0.6 s of CPU burnt by the grandchild, however loaded the machine is.
      await vi.waitFor(() => expect(ticks() - t0).toBeGreaterThanOrEqual(60), {
        timeout: 20_000,
        interval: 100,
      });
      const busy = await sampler.sample(Date.now());
      const wallMs = performance.now() - wall0;
      const burnt = ((ticks() - t0) * 10 * 100) / wallMs; // % of one core, 1 tick = 10 ms
      const self = process.cpuUsage(self0);
      const selfPercent = ((self.user + self.system) / 1000 / wallMs) * 100;
      // The server figure is this process plus all below it: what is left beyond this process is
      // the grandchild's burn (the child in between sleeps), within a tick's rounding and a few ms.
      const descendants = busy.server_cpu_cores_percent - selfPercent;
      expect(descendants).toBeGreaterThan(burnt * 0.8);
      expect(descendants).toBeLessThan(burnt * 1.2 + 5);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  });

  it('disk busy % is reported per whole disk, event loop and active handles are figures', async () => {
    const sample = await sampler.sample(Date.now());
    expect(sample.disk_io_usage.length).toBeGreaterThan(0);
    for (const d of sample.disk_io_usage) {
      expect(d.disk).not.toMatch(/^(loop|zram)/);
      expect(d.usage).toBeGreaterThanOrEqual(0);
      expect(d.usage).toBeLessThanOrEqual(100);
    }
    expect(sample.event_loop_utilization).toBeGreaterThan(0);
    expect(sample.event_loop_utilization).toBeLessThanOrEqual(1);
    const timer = setInterval(() => undefined, 60_000);
    try {
      const withTimer = await sampler.sample(Date.now());
      expect(withTimer.active_handles).toBeGreaterThanOrEqual(1);
    } finally {
      clearInterval(timer);
    }
  });
});
