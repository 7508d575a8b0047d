import { createHash, randomBytes } from 'node:crypto';
import {
  type ClusterFigures,
  type ClusterPeerStream,
  type Config,
  isPlainObject,
  type ServerStats,
} from '@sluice/api';
import type { SystemSampler } from '../../pulse/system-samplers.js';

/** How long a built stream list is reused: polls of several peers within it share one walk. */
export const STREAM_LIST_REUSE_MS = 1000;

export interface LocalServerDeps {
  config: () => Config;
  /** The live view: `stats` (refreshed each second by main.ts), `streams`, `lives`, `sources`. */
  snapshot: () => Record<string, unknown>;
  /** Machine CPU and memory (Pulse samples it each second; read here, sampled only if stale). */
  sampler?: Pick<SystemSampler, 'latest' | 'fresh'>;
  /** Streams marked for cluster ingest and captured here now (cluster/ingest/ sets it). */
  ingestHere?: (name: string) => boolean;
}

interface StreamList {
  builtAtMs: number;
  rev: string;
  list: ClusterPeerStream[];
}

type ViewItem = {
  stats?: { alive?: unknown; bitrate?: unknown; client_count?: unknown; start_running_at?: unknown };
};

/**
 * This server as its peers see it: its figures (spec 002 §3 cluster server, all measured) and its
 * streams. The instance id is random per process, so a `peer` line that names this server itself
 * is recognised by the answer it gets.
 */
export class LocalServer {
  readonly instance = randomBytes(12).toString('hex');
  private streams: StreamList | undefined;

  constructor(private readonly deps: LocalServerDeps) {}

  hostname(): string {
    const stats = this.stats();
    return this.deps.config().hostname ?? (typeof stats.hostname === 'string' ? stats.hostname : 'localhost');
  }

  async figures(nowMs = Date.now()): Promise<ClusterFigures> {
    const config = this.deps.config();
    const stats = this.stats();
    // Pulse's sample of this second if there is one; a server without Pulse samples here.
    const system =
      this.deps.sampler?.latest && nowMs - this.deps.sampler.latest.timeMs < 5000
        ? this.deps.sampler.latest
        : await this.deps.sampler?.fresh(5000, nowMs).catch(() => undefined);
    const output = num(stats.output_kbit);
    const total = config.total_bandwidth;
    return {
      hostname: this.hostname(),
      instance: this.instance,
      ports: {
        ...(config.http?.[0] ? { http: config.http[0] } : {}),
        ...(config.https?.[0] ? { https: config.https[0] } : {}),
        ...(config.rtmp ? { rtmp: config.rtmp } : {}),
      },
      cpu_usage: round1(system?.cpu_usage ?? 0),
      memory_usage: round1(system?.total_memusage ?? 0),
      client_count: num(stats.total_clients),
      stream_count: num(stats.total_streams),
      input_bitrate: num(stats.input_kbit),
      output_bitrate: output,
      // total_bandwidth is in bits/s, the bitrates in kbit/s (1000 bits).
      ...(total ? { bandwidth_usage: round1(((output * 1000) / total) * 100) } : {}),
      version: typeof stats.version === 'string' ? stats.version : '',
      uptime: num(stats.uptime),
    };
  }

  /** The stream list and its revision, rebuilt at most once per STREAM_LIST_REUSE_MS. */
  streamList(nowMs = Date.now()): { rev: string; list: ClusterPeerStream[] } {
    const age = this.streams ? nowMs - this.streams.builtAtMs : Infinity;
    if (age >= 0 && age < STREAM_LIST_REUSE_MS) return this.streams!;
    const list: ClusterPeerStream[] = [];
    const ingest = this.deps.ingestHere;
    const push = (name: string, item: unknown) => {
      const alive = (item as ViewItem | undefined)?.stats?.alive === true;
      list.push(ingest?.(name) ? { name, alive, ingest: true } : { name, alive });
    };
    this.walk((name, item) => push(name, item));
    let text = '';
    for (const s of list) text += `${s.name}\n${s.alive ? 1 : 0}${s.ingest ? 1 : 0}\n`;
    this.streams = {
      builtAtMs: nowMs,
      rev: createHash('sha1').update(text).digest('hex').slice(0, 16),
      list,
    };
    return this.streams;
  }

  /** Each stream with the figures the peer detail page shows (`?server=NAME`). */
  detail(): Record<
    string,
    {
      name: string;
      stats: { start_running_at?: number; bitrate: number; client_count: number; alive: boolean };
    }
  > {
    const out: ReturnType<LocalServer['detail']> = {};
    this.walk((name, item) => {
      const s = (item as ViewItem | undefined)?.stats ?? {};
      const start = typeof s.start_running_at === 'number' ? s.start_running_at : undefined;
      out[name] = {
        name,
        stats: {
          ...(start !== undefined ? { start_running_at: start } : {}),
          bitrate: num(s.bitrate),
          client_count: num(s.client_count),
          alive: s.alive === true,
        },
      };
    });
    return out;
  }

  private stats(): Partial<ServerStats> {
    const stats = this.deps.snapshot().stats;
    return isPlainObject(stats) ? (stats as Partial<ServerStats>) : {};
  }

  /** Configured (not disabled), published and mirrored streams, with their live-view items. */
  private walk(visit: (name: string, item: unknown) => void): void {
    const view = this.deps.snapshot();
    const live = (isPlainObject(view.streams) ? view.streams : {}) as Record<string, unknown>;
    // for…in, not Object.entries: no [key, value] array per stream (20,000 of them each poll).
    const configured = this.deps.config().streams ?? {};
    for (const name in configured) if (!configured[name]!.disabled) visit(name, live[name]);
    for (const section of ['lives', 'sources'] as const) {
      const items = view[section];
      if (!isPlainObject(items)) continue;
      for (const key in items) {
        const holder = items[key];
        if (!isPlainObject(holder) || !isPlainObject(holder.streams)) continue;
        const streams = holder.streams;
        for (const name in streams) visit(name, streams[name]);
      }
    }
  }
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
