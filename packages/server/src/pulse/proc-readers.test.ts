import { describe, expect, it } from 'vitest';
import {
  cpuPercent,
  descendantsOf,
  parseDiskstats,
  parseMeminfo,
  parsePidStat,
  parseProcStat,
  wholeDiskNames,
} from './proc-readers.js';

describe('proc readers', () => {
  it('machine CPU: busy share of the jiffies between two readings, iowait counted idle', () => {
    const a = parseProcStat('cpu  100 0 100 700 100 0 0 0 50 0\ncpu0 1 2 3\n');
    const b = parseProcStat('cpu  160 0 140 800 200 0 0 0 90 0\n');
    // +100 busy (user 60, system 40) over +300 total (idle 100, iowait 100); guest not added twice.
    expect(cpuPercent(a, b)).toBeCloseTo(33.33, 1);
  });

  it('memory: MemTotal and MemAvailable in bytes', () => {
    const m = parseMeminfo('MemTotal:       1000 kB\nMemFree:  10 kB\nMemAvailable:    250 kB\n');
    expect(m).toEqual({ totalBytes: 1024_000, availableBytes: 256_000 });
  });

  it('a process whose name holds spaces and parentheses still parses', () => {
    const p = parsePidStat('42 (ff (x) mpeg) S 7 42 42 0 -1 0 0 0 0 0 150 50 0 0 20 0 1 0 12345 0 0\n');
    expect(p).toEqual({ pid: 42, ppid: 7, cpuTicks: 200, startTicks: 12345 });
  });

  it('descendants: children and grandchildren of the root, not its siblings', () => {
    const row = (pid: number, ppid: number) => ({ pid, ppid, cpuTicks: 0, startTicks: 0 });
    const table = [row(1, 0), row(10, 1), row(11, 10), row(12, 11), row(20, 1), row(13, 10)];
    expect(
      descendantsOf(10, table)
        .map((p) => p.pid)
        .sort(),
    ).toEqual([11, 12, 13]);
  });

  it('disk I/O: whole disks only, loop and zram left out', () => {
    const disks = wholeDiskNames(['loop0', 'vda', 'zram0', 'sda', 'nvme0n1', 'ram1']);
    expect([...disks].sort()).toEqual(['nvme0n1', 'sda', 'vda']);
    const text = [
      '   7       0 loop0 1 0 0 0 0 0 0 0 0 5 0 0 0 0 0 0 0',
      ' 254       0 vda 10 0 0 0 0 0 0 0 0 538552 0 0 0 0 0 0 0',
      ' 254       1 vda1 10 0 0 0 0 0 0 0 0 500000 0 0 0 0 0 0 0',
    ].join('\n');
    expect([...parseDiskstats(text, disks)]).toEqual([['vda', 538552]]);
  });
});
