import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config, StreamStats } from '@sluice/api';
import type { PacketBus } from '../media/packet-bus.js';
import type { Logger } from '../support/log.js';
import { ArchiveIndex } from './archive-index.js';
import { type DvrSettings, dvrScopes, dvrSettingsOf, sameSettings } from './dvr-settings.js';
import { retainDisks, type RetainedStream, retainStream } from './retention.js';
import { type DvrStream, foldersOf, recorderFor } from './dvr-stream.js';
import { writeFailure } from './segment-recorder.js';
import { type DvrInfo, StreamArchive } from './stream-archive.js';
import { streamFoldersUnder } from './stream-folders.js';

/** A running stream as the service sees it: its name and the bus its segments come from. */
export interface RecordedRuntime {
  readonly name: string;
  readonly bus: PacketBus | undefined;
}

export interface DvrServiceDeps {
  log: Logger;
  /** Every stream the engine runs now (configured, published, mirrored). */
  runtimes: () => Iterable<RecordedRuntime>;
  /** The mirror (config `sources` key) that shows a mirrored stream, if one does. */
  mirrorOf: (name: string) => string | undefined;
  /** How often running streams are looked at for new published/mirrored ones and new buses (ms). */
  syncEveryMs?: number;
  /** How often every archive's limits are checked, disk_limit included (ms; also after each write). */
  retainEveryMs?: number;
}

/** Retention runs at least this often (the issue: "checked at least every minute"). */
const RETAIN_EVERY_MS = 10_000;

/**
 * The DVR side of the server: which streams have DVR (their own `dvr`, `dvr @NAME` through the
 * global `dvrs`, their location's or mirror's), each one's archive index read back from disk at
 * start and kept current, and the figures for the stream's stats. Archive playback reads the
 * indexes through archive(); the files are never removed here when a stream loses its DVR
 * ("DVR archive would remain.", spec 000).
 */
export class DvrService {
  private readonly streams = new Map<string, DvrStream>();
  /** Names found on disk under a location's or mirror's root, by the scope they were found for. */
  private readonly discovered = new Map<string, { settings: DvrSettings; names: string[] }>();
  private config: Config = {};
  private readonly ticker: NodeJS.Timeout;
  private readonly retainTicker: NodeJS.Timeout;
  private retainingAll = false;

  constructor(private readonly deps: DvrServiceDeps) {
    this.ticker = setInterval(() => this.sync(), deps.syncEveryMs ?? 1000);
    this.ticker.unref();
    this.retainTicker = setInterval(() => void this.retainAll(), deps.retainEveryMs ?? RETAIN_EVERY_MS);
    this.retainTicker.unref();
  }

  /** The index of a stream with DVR, once read back from disk. */
  archive(name: string): ArchiveIndex | undefined {
    return this.streams.get(name)?.archive?.index;
  }

  /** dvr_info of a stream with DVR and a non-empty archive (seconds; `from` in UNIX seconds). */
  dvrInfo(name: string, nowMs = Date.now()): DvrInfo | undefined {
    return this.streams.get(name)?.archive?.info(nowMs);
  }

  /** The DVR figures of a stream's stats; undefined for a stream without DVR. */
  stats(name: string, nowMs = Date.now()): Partial<StreamStats> | undefined {
    const stream = this.streams.get(name);
    if (!stream) return undefined;
    const stats: Partial<StreamStats> = { dvr_enabled: true };
    const info = stream.archive?.info(nowMs);
    if (info) stats.dvr_info = info;
    // A RAID disk that failed while the others record is said too.
    const disks = stream.placement?.problems(nowMs) ?? [];
    const error =
      stream.error ??
      (disks.length > 0 ? `${disks.join('; ')}; recording goes on on the other disks` : undefined);
    if (error !== undefined) stats.dvr_error = error;
    return stats;
  }

  /**
   * Header notices (server stats `status`, error_* keys): one line naming the streams whose
   * archive can't be written, the first one's reason in full.
   */
  notices(): Record<string, string> {
    const failing = [...this.streams].filter(([, s]) => s.error !== undefined);
    if (failing.length === 0) return {};
    const [name, first] = failing[0]!;
    const more = failing.length > 1 ? ` (and ${failing.length - 1} more stream(s))` : '';
    return { error_dvr: `DVR of stream ${name}: ${first.error}${more}` };
  }

  /** Names of the streams that have DVR now. */
  names(): string[] {
    return [...this.streams.keys()];
  }

  /**
   * Follows the config. Archives are read back in the background: a day of 100 streams is 4.3
   * million files (46 s in bench/dvr.mjs), and the server must listen and play live meanwhile.
   * Each stream starts recording once its own archive is read.
   */
  async apply(config: Config, only?: readonly string[]): Promise<void> {
    this.config = config;
    await this.discover(config);
    // An edit of some streams' fields (`only`) looks at those streams alone: walking all 20,000
    // of a big config took ~25 ms per modify_config (bench/config.mjs). The buses of the others
    // did not change; those of the streams named are attached when their archive is read, and
    // by the sync each second.
    this.reconcile(only);
    if (only) {
      for (const name of only) void this.streams.get(name)?.loading?.then(() => this.attachBuses());
      return;
    }
    for (const stream of this.streams.values()) void stream.loading?.then(() => this.attachBuses());
    this.attachBuses();
  }

  /** Resolves once every archive named now was read back. */
  async loaded(): Promise<void> {
    await Promise.all([...this.streams.values()].map((s) => s.loading));
  }

  /** Stops recording; resolves once the segments taken are on disk. */
  async close(): Promise<void> {
    clearInterval(this.ticker);
    clearInterval(this.retainTicker);
    const streams = [...this.streams.values()];
    this.streams.clear();
    await Promise.all(streams.map((s) => s.recorder?.close()));
  }

  /** Published and mirrored streams that came or went since the last look. */
  private sync(): void {
    const fresh: string[] = [];
    for (const runtime of this.deps.runtimes()) if (!this.streams.has(runtime.name)) fresh.push(runtime.name);
    if (fresh.length > 0) this.reconcile(fresh);
    this.attachBuses();
  }

  /** Each recorder follows its stream's bus: started, restarted (a new bus), stopped or gone. */
  private attachBuses(): void {
    const buses = new Map<string, PacketBus | undefined>();
    for (const runtime of this.deps.runtimes())
      if (this.streams.has(runtime.name)) buses.set(runtime.name, runtime.bus);
    for (const [name, stream] of this.streams) stream.recorder?.attach(buses.get(name));
  }

  /** Reads the folders under each location's and mirror's root once per (changed) scope. */
  private async discover(config: Config): Promise<void> {
    const keep = new Set<string>();
    for (const scope of dvrScopes(config)) {
      const key = JSON.stringify(scope);
      keep.add(key);
      if (this.discovered.has(key)) continue;
      const { section, key: owner } = scope.owner;
      const base = section === 'lives' ? join(scope.settings.root, ...owner.split('/')) : scope.settings.root;
      const names = (await streamFoldersUnder(base)).map((n) => (section === 'lives' ? `${owner}/${n}` : n));
      this.discovered.set(key, { settings: scope.settings, names });
    }
    for (const key of this.discovered.keys()) if (!keep.has(key)) this.discovered.delete(key);
  }

  /** The settings a stream records under now. */
  private settingsOf(name: string): DvrSettings | undefined {
    const own = dvrSettingsOf(this.config, name, this.deps.mirrorOf);
    if (own || this.config.streams?.[name]) return own;
    // A mirrored stream whose mirror has not listed it (yet): its archive is read under the mirror's root.
    for (const { settings, names } of this.discovered.values()) if (names.includes(name)) return settings;
    return undefined;
  }

  /** Opens, changes or drops the DVR of `only` these names, or of every name that may have one. */
  private reconcile(only?: readonly string[]): void {
    const names = new Set(only ?? this.streams.keys());
    if (!only) {
      for (const [name, stream] of Object.entries(this.config.streams ?? {})) if (stream.dvr) names.add(name);
      for (const { names: found } of this.discovered.values()) for (const name of found) names.add(name);
      for (const runtime of this.deps.runtimes()) names.add(runtime.name);
    }
    for (const name of names) {
      const settings = this.settingsOf(name);
      const current = this.streams.get(name);
      if (!settings) {
        if (current) this.drop(name);
        continue;
      }
      if (current && sameSettings(current.settings, settings)) continue;
      // Limits and schedule apply in place; another root or other disks read the archive anew.
      if (current && current.settings.root === settings.root && sameDisks(current.settings, settings)) {
        current.settings = settings;
        continue;
      }
      if (current) this.drop(name);
      this.open(name, settings);
    }
  }

  private open(name: string, settings: DvrSettings): void {
    const folders = foldersOf(name, settings);
    const stream: DvrStream = {
      settings,
      dir: typeof folders === 'string' ? undefined : folders.dirs[0],
      archive: undefined,
      loading: undefined,
      error: undefined,
      recorder: undefined,
      retaining: undefined,
    };
    this.streams.set(name, stream);
    if (typeof folders === 'string') {
      stream.error = folders;
      return;
    }
    stream.placement = folders.placement;
    stream.deletable = folders.deletable;
    const dir = folders.dirs[0]!;
    const where = folders.dirs.join(', ');
    // A single root's folder is made at once ("created automatically"): one that can't be is said
    // before the first segment. RAID disks' mount points are never created.
    const made = folders.placement
      ? Promise.resolve()
      : mkdir(dir, { recursive: true }).then(
          () => undefined,
          (error: NodeJS.ErrnoException) => this.writeFailed(name, stream, writeFailure(dir, error)),
        );
    stream.loading = Promise.all([ArchiveIndex.loadAll(folders.dirs), made])
      .then(([index]) => index)
      .then(
        (index) => {
          if (this.streams.get(name) !== stream) return;
          const archive = new StreamArchive(index);
          stream.archive = archive;
          stream.recorder = recorderFor(name, stream, dir, archive, {
            log: this.deps.log,
            writeFailed: (message) => this.writeFailed(name, stream, message),
            written: () => this.retain(stream),
          });
          // An archive read back may hold more than its limits allow now.
          this.retain(stream);
          if (index.count > 0)
            this.deps.log.notice(`dvr ${name}: ${index.count} segment(s) read back from ${where}`);
        },
        (error: Error) => {
          stream.error = `can't read the archive in ${where}: ${error.message}`;
          this.deps.log.error(`dvr ${name}: ${stream.error}`);
        },
      );
  }

  private drop(name: string): void {
    const stream = this.streams.get(name);
    this.streams.delete(name);
    void stream?.recorder?.close();
  }

  /** What retention needs of a stream, when its archive was read back. */
  private retained(stream: DvrStream): RetainedStream | undefined {
    if (!stream.archive) return undefined;
    const { root, dvrLimitSeconds, diskSpaceBytes, diskLimitPercent } = stream.settings;
    const limits = { dvrLimitSeconds, diskSpaceBytes, diskLimitPercent };
    return { archive: stream.archive, root, limits, deletable: stream.deletable };
  }

  /** dvr_limit and disk_space of one stream, unless a pass of it is running. */
  private retain(stream: DvrStream): void {
    const retained = this.retained(stream);
    if (!retained || stream.retaining) return;
    stream.retaining = retainStream(retained, Date.now())
      .catch((error: Error) => this.deps.log.error(`dvr: retention failed: ${error.message}`))
      .finally(() => (stream.retaining = undefined));
  }

  /** Every stream's limits, then every partition's disk_limit. */
  private async retainAll(): Promise<void> {
    if (this.retainingAll) return;
    this.retainingAll = true;
    try {
      await this.retainPass();
    } finally {
      this.retainingAll = false;
    }
  }

  private async retainPass(): Promise<void> {
    for (const stream of this.streams.values()) this.retain(stream);
    await Promise.all([...this.streams.values()].map((s) => s.retaining));
    const retained = [...this.streams.values()].flatMap((s) => this.retained(s) ?? []);
    await retainDisks(retained).catch((error: Error) =>
      this.deps.log.error(`dvr: disk_limit retention failed: ${error.message}`),
    );
  }

  /** A write failed (or works again): the stats say why, the log says it once. */
  private writeFailed(name: string, stream: DvrStream, message: string | undefined): void {
    if (message === stream.error) return;
    stream.error = message;
    if (message !== undefined) this.deps.log.error(`dvr ${name}: ${message}; live playback goes on`);
    else this.deps.log.notice(`dvr ${name}: writing the archive again`);
  }
}

const sameDisks = (a: DvrSettings, b: DvrSettings) =>
  JSON.stringify([a.disks, a.activeDisks]) === JSON.stringify([b.disks, b.activeDisks]);
