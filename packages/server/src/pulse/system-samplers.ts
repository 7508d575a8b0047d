import { readdirSync, readFileSync } from 'node:fs';
import { readdir, stat, statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { descendantTicks } from './process-tree.js';
import {
  clampPercent,
  cpuPercent,
  parseDiskstats,
  parseMeminfo,
  parseProcStat,
  wholeDiskNames,
  type CpuTimes,
} from './proc-readers.js';

/**
 * USER_HZ, the unit of /proc/<pid>/stat times: 100 on every Linux architecture Node runs on
 * (the kernel fixes it for userspace whatever CONFIG_HZ is).
 */
const TICKS_PER_SECOND = 100;

/**
 * The event-loop lag is the lateness of a timer of this period. Every 20 ms it was 50 wake-ups a
 * second: 0.27 % of a core in an otherwise idle process (bench pulse), more than the store's
 * collection of 1,000 streams; every 100 ms, 0.08 %.
 */
const LAG_TIMER_MS = 100;

export interface DiskIoSample {
  disk: string;
  /** Share of the interval the disk had I/O in flight, 0..100 (iostat's %util). */
  usage: number;
}

export interface PartitionSample {
  /** The first configured path found on this filesystem. */
  path: string;
  /** 0..100, as `df` computes Use%: used / (used + available to unprivileged users). */
  usage: number;
  total_bytes: number;
  free_bytes: number;
}

/** One reading of the machine and of the server process (spec 000 §9 names where they exist). */
export interface SystemSample {
  timeMs: number;
  /** Whole machine busy, 0..100 of all cores (as vmstat's 100 − id − wa). */
  cpu_usage: number;
  /** This process plus its ffmpeg (and other) descendants, 0..100 of all cores. */
  server_cpu_usage: number;
  /** The same in cores, as `top` shows a process (150 = one and a half cores). */
  server_cpu_cores_percent: number;
  total_memavail: number;
  total_memused: number;
  total_memusage: number;
  /** Resident memory of the server process itself. */
  server_memused: number;
  disk_io_usage: DiskIoSample[];
  partitions: PartitionSample[];
  /** Share of the interval the event loop spent running callbacks, 0..1. */
  event_loop_utilization: number;
  /** Mean and max delay of the event loop over the interval (timer lateness), in ms. */
  event_loop_lag_ms: number;
  event_loop_lag_max_ms: number;
  active_handles: number;
  active_requests: number;
}

export interface SystemSamplerOptions {
  /** Paths whose filesystems are reported (config dir, DVR roots, VOD roots…). */
  paths?: () => readonly string[];
  /** Root of the proc filesystem; a test may point it elsewhere. */
  procRoot?: string;
}

/**
 * Reads the machine's CPU, memory, disks and the server's own process once per call; delta
 * figures (CPU, disk busy, event loop) cover the time since the previous call. The first call's
 * deltas run from construction, where a baseline is read synchronously.
 */
export class SystemSampler {
  private readonly proc: string;
  private readonly paths: () => readonly string[];
  private cpu: CpuTimes;
  private diskIoMs = new Map<string, number>();
  private disks: Set<string>;
  private children = new Map<string, number>();
  private selfCpuUs: number;
  private wallMs: number;
  private elu: EventLoopUtilization;
  private readonly lag = monitorEventLoopDelay({ resolution: LAG_TIMER_MS });
  private readonly cores: number;
  private samples = 0;
  private inFlight: Promise<SystemSample> | undefined;
  /** The last sample taken, whoever asked for it (Pulse's collection each second, a scrape). */
  latest: SystemSample | undefined;

  constructor(options: SystemSamplerOptions = {}) {
    this.proc = options.procRoot ?? '/proc';
    this.paths = options.paths ?? (() => []);
    const statText = readFileSync(`${this.proc}/stat`, 'utf8');
    this.cores = Math.max(1, (statText.match(/^cpu\d+ /gm) ?? []).length);
    this.cpu = parseProcStat(statText);
    this.disks = readWholeDisksSync();
    this.diskIoMs = parseDiskstats(readFileSync(`${this.proc}/diskstats`, 'utf8'), this.disks);
    this.children = descendantTicks(this.proc, process.pid);
    this.selfCpuUs = selfCpuUs();
    this.wallMs = performance.now();
    this.elu = performance.eventLoopUtilization();
    this.lag.enable();
  }

  /** Stops the event-loop delay timer. */
  close(): void {
    this.lag.disable();
  }

  /**
   * The latest sample if it is younger than `maxAgeMs`, else a new one: a scrape reads what
   * Pulse's collection took this second, and samples itself only when nothing else does. Callers
   * at the same moment share one reading.
   */
  fresh(maxAgeMs: number, nowMs = Date.now()): Promise<SystemSample> {
    if (this.latest && nowMs - this.latest.timeMs < maxAgeMs) return Promise.resolve(this.latest);
    this.inFlight ??= this.sample(nowMs).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  async sample(nowMs: number): Promise<SystemSample> {
    // Whole disks change only when a disk is attached: re-listed once a minute.
    if (++this.samples % 60 === 0) this.disks = await readWholeDisks();
    // statfs may wait on a network filesystem (a DVR root on NFS): asked asynchronously. The /proc
    // files are read synchronously (process-tree.ts says why), once it has answered.
    const partitions = await partitionsOf(this.paths());
    const statText = readFileSync(`${this.proc}/stat`, 'latin1');
    const meminfo = readFileSync(`${this.proc}/meminfo`, 'latin1');
    const diskstats = readFileSync(`${this.proc}/diskstats`, 'latin1');
    const children = descendantTicks(this.proc, process.pid);
    const wallMs = performance.now();
    const elapsedMs = Math.max(1, wallMs - this.wallMs);
    this.wallMs = wallMs;

    const cpu = parseProcStat(statText);
    const machine = cpuPercent(this.cpu, cpu);
    this.cpu = cpu;

    const selfUs = selfCpuUs();
    let childDeltaTicks = 0;
    // A child seen for the first time started within the interval: all its ticks are new. One
    // that ended since the last reading takes its final ticks with it (the kernel folds them
    // into our cutime only once it is reaped, which Node does at once): a short undercount.
    for (const [key, ticks] of children) childDeltaTicks += ticks - (this.children.get(key) ?? 0);
    this.children = children;
    const serverMs = (selfUs - this.selfCpuUs) / 1000 + (childDeltaTicks * 1000) / TICKS_PER_SECOND;
    this.selfCpuUs = selfUs;
    const serverCoresPercent = Math.max(0, (serverMs / elapsedMs) * 100);

    const mem = parseMeminfo(meminfo);
    const used = mem.totalBytes - mem.availableBytes;

    const io = parseDiskstats(diskstats, this.disks);
    const disk_io_usage: DiskIoSample[] = [];
    for (const [disk, ms] of io) {
      const before = this.diskIoMs.get(disk);
      if (before !== undefined)
        disk_io_usage.push({ disk, usage: clampPercent(((ms - before) / elapsedMs) * 100) });
    }
    this.diskIoMs = io;

    const elu = performance.eventLoopUtilization(this.elu);
    this.elu = performance.eventLoopUtilization();
    const lagMs = this.lag.count > 0 ? this.lag.mean / 1e6 : 0;
    const lagMaxMs = this.lag.count > 0 ? this.lag.max / 1e6 : 0;
    this.lag.reset();

    const { handles, requests } = activeResources();
    return (this.latest = {
      timeMs: nowMs,
      cpu_usage: machine,
      server_cpu_usage: clampPercent(serverCoresPercent / this.cores),
      server_cpu_cores_percent: serverCoresPercent,
      total_memavail: mem.availableBytes,
      total_memused: used,
      total_memusage: mem.totalBytes > 0 ? (used / mem.totalBytes) * 100 : 0,
      server_memused: process.memoryUsage.rss(),
      disk_io_usage,
      partitions,
      event_loop_utilization: elu.utilization,
      // The histogram's timer fires every LAG_TIMER_MS: its own period is not lateness.
      event_loop_lag_ms: Math.max(0, lagMs - LAG_TIMER_MS),
      event_loop_lag_max_ms: Math.max(0, lagMaxMs - LAG_TIMER_MS),
      active_handles: handles,
      active_requests: requests,
    });
  }
}

function selfCpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function readWholeDisksSync(): Set<string> {
  try {
    return wholeDiskNames(readdirSync('/sys/block'));
  } catch {
    return new Set();
  }
}

async function readWholeDisks(): Promise<Set<string>> {
  return wholeDiskNames(await readdir('/sys/block').catch(() => []));
}

/**
 * Space of each filesystem holding one of `paths`, once per filesystem. A path not created yet
 * (a DVR root before its first segment) counts for the nearest existing folder above it.
 */
async function partitionsOf(paths: readonly string[]): Promise<PartitionSample[]> {
  const seen = new Set<number>();
  const out: PartitionSample[] = [];
  for (const path of paths) {
    const existing = await nearestExisting(resolve(path));
    if (!existing || seen.has(existing.dev)) continue;
    seen.add(existing.dev);
    const fs = await statfs(existing.path).catch(() => undefined);
    if (!fs) continue;
    const used = (fs.blocks - fs.bfree) * fs.bsize;
    const avail = fs.bavail * fs.bsize;
    out.push({
      path,
      usage: used + avail > 0 ? (used / (used + avail)) * 100 : 0,
      total_bytes: fs.blocks * fs.bsize,
      free_bytes: avail,
    });
  }
  return out;
}

async function nearestExisting(path: string): Promise<{ path: string; dev: number } | undefined> {
  for (let p = path; ; p = dirname(p)) {
    const s = await stat(p).catch(() => undefined);
    if (s) return { path: p, dev: s.dev };
    if (dirname(p) === p) return undefined;
  }
}

/**
 * getActiveResourcesInfo() lists handles and requests together by type name: requests are the
 * one-shot operations (fs calls, DNS lookups, socket writes), whose types end in Req or ReqWrap,
 * or are WriteWrap / ShutdownWrap.
 */
function activeResources(): { handles: number; requests: number } {
  let requests = 0;
  const all = process.getActiveResourcesInfo();
  for (const type of all) if (/Req(Wrap|Callback)?$|^(WriteWrap|ShutdownWrap)$/.test(type)) requests++;
  return { handles: all.length - requests, requests };
}
