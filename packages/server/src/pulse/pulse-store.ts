import { type BlockWrite, IN_MEMORY, PulseDb, type SeriesRow } from './pulse-db.js';
import {
  RESOLUTIONS,
  blockSpanMs,
  blockStart,
  decodeBlock,
  encodeBlock,
  meanOf,
} from './pulse-resolutions.js';
import { seriesKey } from './series-key.js';

/**
 * Most series kept (a stream has three: media_input, media_output, media_clients). With at most
 * blocksPerSeries() blocks per resolution, 238 bytes a block on disk (measured), a series takes
 * ≤ ~140 KB, so the file stays under ~1.4 GB however long the server runs (docs/pulse.md).
 */
export const MAX_SERIES = 10_000;
/** Blocks leave the store this often (and at open). */
const PRUNE_EVERY_MS = 60_000;
/**
 * The open minute of seconds is written this often (closed blocks, minutes and hours at every flush):
 * it changes each second, and writing 3,000 of them at every flush was half the store's CPU. A crash
 * loses at most this much of the second resolution.
 */
const OPEN_SECONDS_EVERY_MS = 15_000;
/** A series not recorded for this long is settled to disk and leaves memory. */
const IDLE_SERIES_MS = 3_600_000;

export interface SeriesInfo {
  id: number;
  key: string;
  metric: string;
  tags: Record<string, string>;
}

interface LiveBlock {
  startMs: number;
  values: Float32Array;
  dirty: boolean;
}

interface LiveSeries extends SeriesInfo {
  blocks: [LiveBlock, LiveBlock, LiveBlock];
  lastMs: number;
}

export type PulsePoint = [ms: number, value: number];

/**
 * The Pulse store (issue 21): each series' values at three resolutions, the blocks being written
 * held in memory and written to SQLite in one transaction per `flush` (every few seconds), blocks
 * past their resolution's window pruned as it goes. A file that can't be opened or written turns
 * the store into an in-memory one with the same bounds, and `notice` says so.
 */
export class PulseStore {
  private db: PulseDb;
  private readonly byMetric = new Map<string, Map<string, SeriesInfo>>();
  private readonly live = new Map<string, LiveSeries>();
  private newSeries: SeriesRow[] = [];
  private readonly pending = new Map<string, BlockWrite>();
  private nextId = 1;
  private seriesCount = 0;
  private lastPruneMs = 0;
  private lastTidyMs = 0;
  private lastOpenSecondsMs = 0;
  /** Why the store is in memory, or too full to take new series; undefined when all is well. */
  notice: string | undefined;
  private fullNotice: string | undefined;

  constructor(readonly path: string = IN_MEMORY) {
    try {
      this.db = new PulseDb(path);
    } catch (error) {
      this.db = this.toMemory(error);
    }
    for (const s of this.db.allSeries()) this.index({ ...s, key: seriesKey(s.metric, s.tags) });
  }

  get inMemory(): boolean {
    return this.db.path === IN_MEMORY;
  }

  /** Header notices (server stats `status`): error_pulsedb, error_pulse_series. */
  notices(): Record<string, string> {
    return {
      ...(this.notice ? { error_pulsedb: this.notice } : {}),
      ...(this.fullNotice ? { error_pulse_series: this.fullNotice } : {}),
    };
  }

  /**
   * A measured value at `nowMs` (its second). Returns the minute this sample closed, if it closed
   * one with values in it: [minute start, mean of its seconds].
   */
  record(metric: string, tags: Record<string, string>, value: number, nowMs: number): PulsePoint | undefined {
    const s = this.liveSeries(metric, tags, nowMs);
    if (!s) return undefined;
    s.lastMs = nowMs;
    const closed = this.place(s, 0, Math.floor(nowMs / 1000) * 1000, value);
    return closed && !Number.isNaN(closed[1]) ? closed : undefined;
  }

  /** The series of exactly these tags, if it exists (a stream that never carried anything has none). */
  find(metric: string, tags: Record<string, string>): SeriesInfo | undefined {
    return this.byMetric.get(metric)?.get(seriesKey(metric, tags));
  }

  /** The series of a metric (all tags). */
  series(metric: string): SeriesInfo[] {
    return [...(this.byMetric.get(metric)?.values() ?? [])];
  }

  /** The series' values at a resolution level within [fromMs, toMs], oldest first (closed and open blocks). */
  points(info: SeriesInfo, level: 0 | 1 | 2, fromMs: number, toMs: number): PulsePoint[] {
    const r = RESOLUTIONS[level];
    const blocks = this.blocksOf(info, level, fromMs, toMs);
    const out: PulsePoint[] = [];
    for (const start of [...blocks.keys()].sort((a, b) => a - b)) {
      const values = blocks.get(start)!;
      for (let i = 0; i < values.length; i++) {
        const ms = start + i * r.stepMs;
        if (ms >= fromMs && ms <= toMs && !Number.isNaN(values[i]!)) out.push([ms, values[i]!]);
      }
    }
    return out;
  }

  /**
   * The same values as one array, slot k at `fromMs + k` steps (`fromMs` on a step), NaN where
   * nothing was measured: a range of many series read without an object per point.
   */
  dense(info: SeriesInfo, level: 0 | 1 | 2, fromMs: number, count: number): Float64Array {
    const r = RESOLUTIONS[level];
    const out = new Float64Array(count).fill(NaN);
    for (const [start, values] of this.blocksOf(info, level, fromMs, fromMs + (count - 1) * r.stepMs))
      for (let i = 0; i < values.length; i++) {
        const slot = (start - fromMs) / r.stepMs + i;
        if (slot >= 0 && slot < count) out[slot] = values[i]!;
      }
    return out;
  }

  /** The blocks holding some of [fromMs, toMs]: written, waiting for the flush, open. */
  private blocksOf(
    info: SeriesInfo,
    level: 0 | 1 | 2,
    fromMs: number,
    toMs: number,
  ): Map<number, Float32Array> {
    const r = RESOLUTIONS[level];
    const blocks = new Map<number, Float32Array>();
    const span = blockSpanMs(r);
    const open = this.live.get(info.key)?.blocks[level];
    // The websocket topics ask for the last second of every matching series each second: the open
    // block holds it, no need to ask SQLite.
    if (!open || fromMs < open.startMs) {
      for (const row of this.db.blocks(info.id, level, fromMs, toMs))
        blocks.set(row.startMs, decodeBlock(row.data, r.blockLength));
      for (let start = blockStart(r, fromMs); start <= toMs; start += span) {
        const waiting = this.pending.get(`${info.id}:${level}:${start}`);
        if (waiting) blocks.set(start, decodeBlock(waiting.data, r.blockLength));
      }
    }
    if (open && open.startMs + span > fromMs && open.startMs <= toMs) blocks.set(open.startMs, open.values);
    return blocks;
  }

  /** Writes what changed since the last flush in one transaction; prunes once a minute. */
  flush(nowMs: number): void {
    const writes = [...this.pending.values()];
    const withSeconds = nowMs - this.lastOpenSecondsMs >= OPEN_SECONDS_EVERY_MS;
    if (withSeconds) this.lastOpenSecondsMs = nowMs;
    for (const s of this.live.values())
      for (const [level, b] of s.blocks.entries()) {
        if (!b.dirty || (level === 0 && !withSeconds)) continue;
        writes.push({ series: s.id, level, startMs: b.startMs, data: Buffer.from(encodeBlock(b.values)) });
        b.dirty = false;
      }
    try {
      this.db.write(this.newSeries, writes);
      if (nowMs - this.lastPruneMs >= PRUNE_EVERY_MS) {
        this.lastPruneMs = nowMs;
        this.db.prune(nowMs);
      }
    } catch (error) {
      // The disk filled or the file went: the store goes on in memory with what it holds now.
      this.db.close();
      this.db = this.toMemory(error);
      this.db.write(
        [...this.known()].map(({ id, metric, tags }) => ({ id, metric, tags })),
        writes,
      );
    }
    this.newSeries = [];
    this.pending.clear();
    if (nowMs - this.lastTidyMs >= IDLE_SERIES_MS) this.tidy(nowMs);
  }

  /** Settles a series to disk and frees its memory (a stream that went); its history stays. */
  release(metric: string, tags: Record<string, string>): void {
    const s = this.live.get(seriesKey(metric, tags));
    if (!s) return;
    this.settle(s);
    this.live.delete(s.key);
  }

  /** Settles every series and writes them: a restart then finds all it measured. */
  close(nowMs = Date.now()): void {
    for (const s of this.live.values()) this.settle(s);
    this.flush(nowMs);
    this.db.close();
  }

  counts(): { series: number; blocks: number } {
    return this.db.counts();
  }

  private liveSeries(metric: string, tags: Record<string, string>, nowMs: number): LiveSeries | undefined {
    const key = seriesKey(metric, tags);
    const found = this.live.get(key);
    if (found) return found;
    let info = this.byMetric.get(metric)?.get(key);
    if (!info) {
      if (this.seriesCount >= MAX_SERIES) {
        this.fullNotice = `Pulse keeps at most ${MAX_SERIES} series: ${key} and newer ones are not recorded`;
        return undefined;
      }
      info = { id: this.nextId, key, metric, tags: { ...tags } };
      this.newSeries.push({ id: info.id, metric, tags: info.tags });
      this.index(info);
    }
    // The blocks being written may hold values from before a restart: they go on from there.
    const blocks = RESOLUTIONS.map((r) => {
      const startMs = blockStart(r, nowMs);
      const stored = this.db.block(info.id, r.level, startMs);
      const values = stored ? decodeBlock(stored, r.blockLength) : new Float32Array(r.blockLength).fill(NaN);
      return { startMs, values, dirty: false };
    }) as LiveSeries['blocks'];
    const s: LiveSeries = { ...info, blocks, lastMs: nowMs };
    this.live.set(key, s);
    return s;
  }

  /** Puts a value in its block; a value past the block closes it. Returns the closed block's mean. */
  private place(s: LiveSeries, level: 0 | 1 | 2, ms: number, value: number): PulsePoint | undefined {
    const r = RESOLUTIONS[level];
    const start = blockStart(r, ms);
    const b = s.blocks[level];
    // A clock set back: values before the open block are dropped rather than written over newer ones.
    if (start < b.startMs) return undefined;
    let closed: PulsePoint | undefined;
    if (start > b.startMs) {
      closed = [b.startMs, this.closeBlock(s, level)];
      b.startMs = start;
      b.values.fill(NaN);
      b.dirty = false;
    }
    b.values[Math.floor((ms - start) / r.stepMs)] = value;
    b.dirty = true;
    return closed;
  }

  /** Queues the block for writing and hands its mean to the next resolution. */
  private closeBlock(s: LiveSeries, level: 0 | 1 | 2): number {
    const b = s.blocks[level];
    const mean = meanOf(b.values);
    if (b.dirty) {
      const data = Buffer.from(encodeBlock(b.values));
      this.pending.set(`${s.id}:${level}:${b.startMs}`, { series: s.id, level, startMs: b.startMs, data });
    }
    if (level < 2 && !Number.isNaN(mean)) this.place(s, (level + 1) as 1 | 2, b.startMs, mean);
    return mean;
  }

  /**
   * The open blocks' means handed up without closing them, and the changed blocks queued for the
   * next flush (before a series leaves memory, or the store closes). A series recorded again later
   * reads its open blocks back and goes on.
   */
  private settle(s: LiveSeries): void {
    for (const level of [0, 1, 2] as const) {
      const b = s.blocks[level];
      const mean = meanOf(b.values);
      if (level < 2 && !Number.isNaN(mean)) this.place(s, (level + 1) as 1 | 2, b.startMs, mean);
      if (!b.dirty) continue;
      const data = Buffer.from(encodeBlock(b.values));
      this.pending.set(`${s.id}:${level}:${b.startMs}`, { series: s.id, level, startMs: b.startMs, data });
      b.dirty = false;
    }
  }

  /** Hourly: idle series leave memory, series whose blocks all aged out leave the store. */
  private tidy(nowMs: number): void {
    this.lastTidyMs = nowMs;
    for (const s of this.live.values()) {
      if (nowMs - s.lastMs < IDLE_SERIES_MS) continue;
      this.settle(s);
      this.live.delete(s.key);
    }
    this.flush(nowMs);
    try {
      if (this.db.forgetEmptySeries() === 0) return;
    } catch {
      return;
    }
    const kept = new Set(this.db.allSeries().map((s) => s.id));
    for (const [metric, series] of this.byMetric) {
      for (const [key, info] of series)
        if (!kept.has(info.id) && !this.live.has(key)) {
          series.delete(key);
          this.seriesCount--;
        }
      if (series.size === 0) this.byMetric.delete(metric);
    }
    if (this.seriesCount < MAX_SERIES) this.fullNotice = undefined;
  }

  private index(info: SeriesInfo): void {
    let series = this.byMetric.get(info.metric);
    if (!series) this.byMetric.set(info.metric, (series = new Map()));
    series.set(info.key, info);
    this.seriesCount++;
    this.nextId = Math.max(this.nextId, info.id + 1);
  }

  private *known(): Iterable<SeriesInfo> {
    for (const series of this.byMetric.values()) yield* series.values();
  }

  private toMemory(error: unknown): PulseDb {
    const reason = error instanceof Error ? error.message : String(error);
    this.notice = `Pulse statistics can't be written to ${this.path} (${reason}): collected in memory only`;
    return new PulseDb(IN_MEMORY);
  }
}
