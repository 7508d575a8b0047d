import { type BlockWrite, IN_MEMORY, PulseDb, type SeriesRow } from './pulse-db.js';
import {
  type LiveSeries,
  type PulsePoint,
  type QueueBlock,
  type SeriesInfo,
  place,
  resume,
  settle,
  spread,
} from './pulse-live.js';
import { RESOLUTIONS, blockSpanMs, blockStart, decodeBlock, encodeBlock } from './pulse-resolutions.js';
import { seriesKey } from './series-key.js';

export type { LiveSeries, PulsePoint, SeriesInfo } from './pulse-live.js';

/**
 * Most series kept (a stream has three: media_input, media_output, media_clients). With at most
 * blocksPerSeries() blocks per resolution, 238 bytes a block on disk (measured), a series takes
 * ≤ ~140 KB, so the file stays under ~1.4 GB however long the server runs (docs/pulse.md).
 */
export const MAX_SERIES = 10_000;
/** Blocks leave the store this often (and at open). */
const PRUNE_EVERY_MS = 60_000;
/**
 * The open blocks are written this often, by resolution (closed blocks at every flush): the open
 * minute of seconds changes each second, the open day of minutes (5.8 KB) each minute; writing all
 * 3,000 at every flush was half the store's CPU. A crash loses at most 15 s of seconds; the minutes
 * it loses are made again from the seconds when the series is read back (pulse-live.ts resume).
 */
const OPEN_BLOCKS_EVERY_MS = [15_000, 1_800_000, 0] as const;
/** A series not recorded for this long is settled to disk and leaves memory. */
const IDLE_SERIES_MS = 3_600_000;

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
  private readonly lastOpenWriteMs = [0, 0, 0];
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
    const s = this.handle(metric, tags, nowMs);
    return s ? this.recordTo(s, value, nowMs) : undefined;
  }

  /**
   * The series being recorded, as a handle a collector keeps for `recordTo` (1,000 streams are
   * 3,000 values a second: building each one's key to look it up was a third of collection).
   * Undefined when the store is full. A handle whose `gone` is set must be asked for again.
   */
  handle(metric: string, tags: Record<string, string>, nowMs: number): LiveSeries | undefined {
    return this.live.get(seriesKey(metric, tags)) ?? this.liveSeries(metric, tags, nowMs);
  }

  /** `record` through a handle (see `handle`). */
  recordTo(s: LiveSeries, value: number, nowMs: number): PulsePoint | undefined {
    if (s.gone) return this.record(s.metric, s.tags, value, nowMs);
    s.lastMs = nowMs;
    const closed = place(s, 0, Math.floor(nowMs / 1000) * 1000, value, this.queue);
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
    const stepMs = RESOLUTIONS[level].stepMs;
    const first = Math.ceil(fromMs / stepMs) * stepMs;
    const count = Math.max(0, Math.floor((toMs - first) / stepMs) + 1);
    const out: PulsePoint[] = [];
    this.dense([info], level, first, count, (_, values) => {
      for (let k = 0; k < count; k++)
        if (!Number.isNaN(values[k]!)) out.push([first + k * stepMs, values[k]!]);
    });
    return out;
  }

  /**
   * Each series' values in turn as one array (reused: valid during the call), slot k at `fromMs + k`
   * steps (`fromMs` on a step), NaN where nothing was measured: a range of many series read in one
   * statement, without an object per point or an array per series. What is written, then what
   * waits for the flush, then the open blocks (newest wins).
   */
  dense(
    infos: readonly SeriesInfo[],
    level: 0 | 1 | 2,
    fromMs: number,
    count: number,
    each: (index: number, values: Float64Array) => void,
  ): void {
    if (count <= 0) return;
    const r = RESOLUTIONS[level];
    const toMs = fromMs + (count - 1) * r.stepMs;
    const span = blockSpanMs(r);
    const sources = infos.map((): [startMs: number, data: Buffer | Float32Array][] => []);
    const slot = new Map(infos.map((info, i) => [info.id, i]));
    const opens = infos.map((info) => this.live.get(info.key)?.blocks[level]);
    // The websocket topics ask for the last seconds of every matching series each second: the open
    // blocks hold them, no need to ask SQLite.
    const stored = infos.filter((info, i) => !opens[i] || fromMs < opens[i].startMs).map((info) => info.id);
    for (const row of this.db.blocks(stored, level, fromMs, toMs))
      sources[slot.get(row.series)!]!.push([row.startMs, row.data]);
    if (stored.length > 0)
      for (const waiting of this.pending.values()) {
        const i = slot.get(waiting.series);
        if (i === undefined || waiting.level !== level) continue;
        if (waiting.startMs + span > fromMs && waiting.startMs <= toMs)
          sources[i]!.push([waiting.startMs, waiting.data]);
      }
    opens.forEach((open, i) => {
      if (open && open.startMs + span > fromMs && open.startMs <= toMs)
        sources[i]!.push([open.startMs, open.values]);
    });
    const values = new Float64Array(count);
    sources.forEach((blocks, i) => {
      values.fill(NaN);
      for (const [startMs, data] of blocks) spread(values, data, startMs, fromMs, r.stepMs);
      each(i, values);
    });
  }

  /** Writes what changed since the last flush in one transaction; prunes once a minute. */
  flush(nowMs: number): void {
    const writes = [...this.pending.values()];
    const due = OPEN_BLOCKS_EVERY_MS.map((every, level) => nowMs - this.lastOpenWriteMs[level]! >= every);
    due.forEach((yes, level) => yes && (this.lastOpenWriteMs[level] = nowMs));
    for (const s of this.live.values())
      for (const [level, b] of s.blocks.entries()) {
        if (!b.dirty || !due[level]) continue;
        writes.push({ series: s.id, level, startMs: b.startMs, data: encodeBlock(b.values) });
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
    if (s) this.settle(s);
  }

  /** Settles every series and writes them: a restart then finds all it measured. */
  close(nowMs = Date.now()): void {
    for (const s of [...this.live.values()]) this.settle(s);
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
    // A series new to the store has nothing stored to read back (1,000 streams coming up are 3,000).
    const stored = info !== undefined;
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
      const data = stored ? this.db.block(info.id, r.level, startMs) : undefined;
      const values = data ? decodeBlock(data, r.blockLength) : new Float32Array(r.blockLength).fill(NaN);
      return { startMs, values, dirty: false };
    }) as LiveSeries['blocks'];
    const s: LiveSeries = { ...info, blocks, lastMs: nowMs, gone: false };
    if (stored) resume(s, this.db.blocks([info.id], 0, nowMs - RESOLUTIONS[0].keepMs, nowMs), nowMs);
    this.live.set(key, s);
    return s;
  }

  /** A block that closed, or a changed one being settled: written at the next flush. */
  private readonly queue: QueueBlock = (s, level, startMs, data) => {
    this.pending.set(`${s.id}:${level}:${startMs}`, { series: s.id, level, startMs, data });
  };

  /** A series leaves memory: its changed blocks are queued, its handle is gone. */
  private settle(s: LiveSeries): void {
    settle(s, this.queue);
    s.gone = true;
    this.live.delete(s.key);
  }

  /** Hourly: idle series leave memory, series whose blocks all aged out leave the store. */
  private tidy(nowMs: number): void {
    this.lastTidyMs = nowMs;
    for (const s of [...this.live.values()]) if (nowMs - s.lastMs >= IDLE_SERIES_MS) this.settle(s);
    this.flush(nowMs);
    try {
      if (this.db.forgetEmptySeries([...this.live.values()].map((s) => s.id)) === 0) return;
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
