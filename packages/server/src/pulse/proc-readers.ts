/**
 * Parsers for the Linux /proc files the system sampler reads (proc(5)). Pure functions over the
 * file text, so the arithmetic is tested apart from the machine it runs on.
 */

/** Jiffies of the whole machine from the first `cpu` line of /proc/stat. */
export interface CpuTimes {
  busy: number;
  total: number;
}

export function parseProcStat(text: string): CpuTimes {
  const end = text.indexOf('\n');
  const fields = text
    .slice(0, end < 0 ? text.length : end)
    .trim()
    .split(/\s+/);
  // cpu user nice system idle iowait irq softirq steal guest guest_nice; guest time is already
  // counted in user (proc(5)), so it is left out of the total. iowait is idle time too: `top` and
  // `vmstat` report it apart from us/sy, and a CPU waiting on a disk can run other work.
  let total = 0;
  for (let i = 1; i <= 8 && i < fields.length; i++) total += Number(fields[i]);
  const idle = Number(fields[4] ?? 0) + Number(fields[5] ?? 0);
  return { busy: total - idle, total };
}

/** Busy share (0..100) of the machine between two readings of /proc/stat. */
export function cpuPercent(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total;
  if (total <= 0) return 0;
  return clampPercent(((after.busy - before.busy) / total) * 100);
}

export interface MemInfo {
  totalBytes: number;
  availableBytes: number;
}

export function parseMeminfo(text: string): MemInfo {
  return {
    totalBytes: meminfoKb(text, 'MemTotal:') * 1024,
    availableBytes: meminfoKb(text, 'MemAvailable:') * 1024,
  };
}

function meminfoKb(text: string, key: string): number {
  const at = text.indexOf(key);
  if (at < 0) return 0;
  return parseInt(text.slice(at + key.length, text.indexOf('\n', at)), 10) || 0;
}

/** One process line of /proc/<pid>/stat: what the descendant walk and the CPU sum need. */
export interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
  /** Start time after boot (ticks): with pid, names one process even when pids are reused. */
  startTicks: number;
}

export function parsePidStat(text: string): ProcStat | undefined {
  // The command name (field 2) is in parentheses and may itself hold spaces and ')': the fields
  // that follow start after the last ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  const pid = parseInt(text, 10);
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  const start = Number(rest[19]);
  if (!Number.isFinite(pid) || !Number.isFinite(ppid) || !Number.isFinite(utime + stime)) return undefined;
  return { pid, ppid, cpuTicks: utime + stime, startTicks: start };
}

/** The pids below `root` in a process table (children, their children…), root excluded. */
export function descendantsOf(root: number, table: readonly ProcStat[]): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const p of table) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const found: ProcStat[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Milliseconds each block device has spent with I/O in flight (field 13 of /proc/diskstats). */
export function parseDiskstats(text: string, wholeDisks: ReadonlySet<string>): Map<string, number> {
  const ioMs = new Map<string, number>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 14 || !wholeDisks.has(f[2]!)) continue;
    ioMs.set(f[2]!, Number(f[12]));
  }
  return ioMs;
}

/**
 * Whole disks among /sys/block's entries: partitions are not listed there, and loop, ram and zram
 * devices are memory or files on another disk, whose I/O is counted where it lands.
 */
export function wholeDiskNames(sysBlock: readonly string[]): Set<string> {
  return new Set(sysBlock.filter((name) => !/^(loop|ram|zram)\d*$/.test(name)));
}

export function clampPercent(value: number): number {
  return value < 0 ? 0 : value > 100 ? 100 : value;
}
