import { isAbsolute, join, resolve } from 'node:path';
import type { Config } from '@sluice/api';
import type { Logger } from '../support/log.js';
import { pulseRangeHandler } from './pulse-http.js';
import { PulseStore } from './pulse-store.js';
import type { SystemSample, SystemSampler } from './system-samplers.js';
import type { ThumbnailerUsage } from '../delivery/thumbnails.js';
import { ThumbnailerSampler } from './thumbnailer-sampler.js';

/** The store's file inside the `pulsedb` folder (default: `pulsedb` beside the config). */
export const PULSE_DB_FILE = 'pulse.sqlite3';
export const DEFAULT_PULSEDB_DIR = 'pulsedb';
/** Writes are batched: one transaction this often (the open blocks stay in memory between). */
export const FLUSH_EVERY_MS = 5000;

export interface PulseTotals {
  inputKbit: number;
  outputKbit: number;
  clients: number;
}

export interface PulseServiceOptions {
  configDir: string;
  log: Logger;
  /** The server's totals now (engine.traffic()). Per-stream figures arrive through TrafficHistory. */
  totals: () => PulseTotals;
  /** The machine and process sampler (system-samplers.ts); absent in tests of the store alone. */
  sampler?: Pick<SystemSampler, 'sample' | 'close'>;
}

type TickListener = (nowMs: number) => void;

/**
 * Pulse collection (issue 21): once a second the server totals and the system sample go into the
 * store; the store is flushed every FLUSH_EVERY_MS. The store follows `pulsedb`: a new path opens a
 * new file (the old one is settled and closed).
 */
export class PulseService {
  private current: PulseStore;
  private timer: NodeJS.Timeout | undefined;
  private lastFlushMs = 0;
  private sampling = false;
  private readonly listeners = new Set<TickListener>();
  private thumbnailer: ThumbnailerSampler | undefined;

  constructor(
    private readonly options: PulseServiceOptions,
    config: Config,
  ) {
    this.current = this.open(pathOf(options.configDir, config));
  }

  /** GET /flussonic/api/pulse (pulse-http.ts). */
  readonly rangeHandler = pulseRangeHandler(this);

  get store(): PulseStore {
    return this.current;
  }

  /** What server stats report as "Collecting statistics" (retroview_enabled/_configured). */
  state(): { collecting: boolean; persisted: boolean } {
    return { collecting: this.timer !== undefined, persisted: !this.current.inMemory };
  }

  notices(): Record<string, string> {
    return this.current.notices();
  }

  apply(config: Config): void {
    const path = pathOf(this.options.configDir, config);
    if (path === this.current.path) return;
    this.current.close();
    this.current = this.open(path);
  }

  start(): void {
    this.timer ??= setInterval(() => {
      this.tick(Date.now()).catch((error: unknown) =>
        this.options.log.error(`pulse: a second was not collected: ${String(error)}`),
      );
    }, 1000);
  }

  /** The thumbnailer's memory and traffic are collected each second from now on. */
  watchThumbnailer(usage: () => ThumbnailerUsage): void {
    this.thumbnailer = new ThumbnailerSampler(usage);
  }

  /** Called after each second's values are in the store (the websocket topics send then). */
  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One second of collection; exported for tests and the bench. */
  async tick(nowMs: number): Promise<void> {
    const store = this.current;
    const totals = this.options.totals();
    store.record('total_input', {}, totals.inputKbit, nowMs);
    store.record('total_output', {}, totals.outputKbit, nowMs);
    store.record('total_clients', {}, totals.clients, nowMs);
    const thumbnailer = this.thumbnailer?.sample(nowMs);
    if (thumbnailer)
      for (const [metric, value] of Object.entries(thumbnailer)) store.record(metric, {}, value, nowMs);
    // A slow /proc read (a loaded machine) skips a second rather than piling samples up.
    if (this.options.sampler && !this.sampling) {
      this.sampling = true;
      try {
        recordSystem(store, await this.options.sampler.sample(nowMs), nowMs);
      } catch (error) {
        this.options.log.debug(`pulse: system sample failed: ${String(error)}`);
      } finally {
        this.sampling = false;
      }
    }
    if (nowMs - this.lastFlushMs >= FLUSH_EVERY_MS) {
      this.lastFlushMs = nowMs;
      const wasInMemory = store.inMemory;
      store.flush(nowMs);
      if (!wasInMemory && store.inMemory) this.options.log.error(store.notice ?? 'pulse: store in memory');
    }
    for (const listener of this.listeners) listener(nowMs);
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.options.sampler?.close();
    this.current.close();
  }

  private open(path: string): PulseStore {
    const store = new PulseStore(path);
    if (store.notice) this.options.log.error(store.notice);
    return store;
  }
}

/** The store file: `<pulsedb>/pulse.sqlite3`, a relative pulsedb read from the config's folder. */
export function pathOf(configDir: string, config: Config): string {
  const configured = config.pulsedb?.trim();
  const dir = !configured
    ? join(configDir, DEFAULT_PULSEDB_DIR)
    : isAbsolute(configured)
      ? configured
      : resolve(configDir, configured);
  return join(dir, PULSE_DB_FILE);
}

/** The sampler's figures under the metric names of PULSE_METRICS (packages/api pulse/query.ts). */
function recordSystem(store: PulseStore, s: SystemSample, nowMs: number): void {
  const plain = [
    'cpu_usage',
    'server_cpu_usage',
    'total_memavail',
    'total_memused',
    'total_memusage',
    'server_memused',
    'event_loop_utilization',
    'event_loop_lag_ms',
    'active_handles',
    'active_requests',
  ] as const;
  for (const metric of plain) store.record(metric, {}, s[metric], nowMs);
  for (const d of s.disk_io_usage) store.record('disk_io_usage', { disk: d.disk }, d.usage, nowMs);
  for (const p of s.partitions) store.record('partition_usage', { path: p.path }, p.usage, nowMs);
}
