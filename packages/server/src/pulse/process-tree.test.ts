import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendantTicks } from './process-tree.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A /proc/<pid>/stat line: state, ppid, then utime and stime at fields 14 and 15, start at 22. */
const stat = (pid: number, ppid: number, ticks: number) =>
  `${pid} (ffmpeg) S ${ppid} ${pid} ${pid} 0 -1 0 0 0 0 0 ${ticks} 0 0 0 20 0 1 0 ${pid * 100} 0 0\n`;

describe('descendantTicks', () => {
  it('without the children files (no CONFIG_PROC_CHILDREN) scans every process for the tree', () => {
    const procs: [number, number, number][] = [
      [1, 0, 5],
      [10, 1, 300],
      [11, 10, 70],
      [20, 2, 999],
    ];
    for (const [pid, ppid, ticks] of procs) {
      mkdirSync(join(dir, String(pid)));
      writeFileSync(join(dir, String(pid), 'stat'), stat(pid, ppid, ticks));
    }
    expect(descendantTicks(dir, 1)).toEqual(
      new Map([
        ['10:1000', 300],
        ['11:1100', 70],
      ]),
    );
  });

  it('on Linux, finds a child this process started through the children files', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn('sleep', ['30']);
    try {
      const keys = [...descendantTicks('/proc', process.pid).keys()];
      expect(keys.some((k) => k.startsWith(`${child.pid}:`))).toBe(true);
    } finally {
      child.kill();
    }
  });
});
