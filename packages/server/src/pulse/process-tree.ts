import { readdirSync, readFileSync } from 'node:fs';
import { descendantsOf, parsePidStat, type ProcStat } from './proc-readers.js';

/**
 * CPU ticks (utime + stime) of every process below `root` (its ffmpegs, their children…), keyed
 * `pid:start` so a reused pid is a new process.
 *
 * Read synchronously: /proc files are made by the kernel on read and never wait on a disk, and a
 * few hundred async reads a second cost more in thread-pool hops than the reads themselves
 * (bench pulse: 15 ms of CPU a sample on a machine of 170 processes, 2 ms sync).
 * Walked down from `root` through /proc/<pid>/task/<tid>/children, so the cost follows the server's
 * own tree rather than every process on the machine; a kernel without that file (it needs
 * CONFIG_PROC_CHILDREN) gets the scan of all of /proc.
 */
export function descendantTicks(proc: string, root: number): Map<string, number> {
  const ticks = new Map<string, number>();
  const add = (p: ProcStat) => ticks.set(`${p.pid}:${p.startTicks}`, p.cpuTicks);
  let direct: number[];
  try {
    // Every thread of the server: a child belongs to the thread that spawned it (libuv spawns from
    // the loop thread, a worker thread may too).
    direct = readdirSync(`${proc}/${root}/task`).flatMap((tid) => childrenOf(proc, root, tid));
  } catch {
    for (const p of descendantsOf(root, scanAll(proc))) add(p);
    return ticks;
  }
  const queue = direct;
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const stat = readStat(proc, pid);
    if (!stat) continue; // ended since its parent listed it
    add(stat);
    // A descendant's own children are those of its main thread: ffmpeg spawns none, a shell or a
    // probe wrapper spawns from its main thread.
    queue.push(...safeChildren(proc, pid, String(pid)));
  }
  return ticks;
}

function childrenOf(proc: string, pid: number, tid: string): number[] {
  const text = readFileSync(`${proc}/${pid}/task/${tid}/children`, 'latin1');
  const out: number[] = [];
  for (const part of text.split(' ')) if (part) out.push(Number(part));
  return out;
}

function safeChildren(proc: string, pid: number, tid: string): number[] {
  try {
    return childrenOf(proc, pid, tid);
  } catch {
    return [];
  }
}

function readStat(proc: string, pid: number | string): ProcStat | undefined {
  try {
    return parsePidStat(readFileSync(`${proc}/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

function scanAll(proc: string): ProcStat[] {
  const table: ProcStat[] = [];
  for (const name of readdirSync(proc)) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const p = readStat(proc, name);
    if (p) table.push(p);
  }
  return table;
}
