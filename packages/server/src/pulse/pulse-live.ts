import { RESOLUTIONS, blockStart, encodeBlock, meanOf } from './pulse-resolutions.js';

export interface SeriesInfo {
  id: number;
  key: string;
  metric: string;
  tags: Record<string, string>;
}

export interface LiveBlock {
  startMs: number;
  values: Float32Array;
  dirty: boolean;
  /** The next resolution's step the last value fell in (its mean is handed up when it ends). */
  upMs?: number;
}

/**
 * A series being recorded: its open block at each resolution. It is also the handle a collector
 * keeps (PulseStore.handle) so a value costs no lookup; `gone` once the store let it go.
 */
export interface LiveSeries extends SeriesInfo {
  blocks: [LiveBlock, LiveBlock, LiveBlock];
  lastMs: number;
  gone: boolean;
}

export type PulsePoint = [ms: number, value: number];

/** Where a block that closed, or a changed one being settled, goes to be written. */
export type QueueBlock = (s: LiveSeries, level: 0 | 1 | 2, startMs: number, data: Buffer) => void;

/**
 * Puts a value in its block at `level`. A value past the next resolution's step (a minute for
 * seconds, an hour for minutes) hands that step's mean up; a value past the open block closes it
 * (queued for writing). Returns the step that ended: its start and mean (NaN when empty).
 */
export function place(
  s: LiveSeries,
  level: 0 | 1 | 2,
  ms: number,
  value: number,
  queue: QueueBlock,
): PulsePoint | undefined {
  const r = RESOLUTIONS[level];
  const start = blockStart(r, ms);
  const b = s.blocks[level];
  // A clock set back: values before the open block are dropped rather than written over newer ones.
  if (start < b.startMs) return undefined;
  let ended: PulsePoint | undefined;
  if (level < 2) {
    const upMs = Math.floor(ms / RESOLUTIONS[level + 1]!.stepMs) * RESOLUTIONS[level + 1]!.stepMs;
    if (b.upMs !== undefined && upMs > b.upMs) ended = handUp(s, level as 0 | 1, b.upMs, queue);
    if (b.upMs === undefined || upMs > b.upMs) b.upMs = upMs;
  }
  if (start > b.startMs) {
    if (b.dirty) queue(s, level, b.startMs, Buffer.from(encodeBlock(b.values)));
    b.startMs = start;
    b.values.fill(NaN);
    b.dirty = false;
  }
  b.values[Math.floor((ms - start) / r.stepMs)] = value;
  b.dirty = true;
  return ended;
}

/** The mean of the open block's values in the next resolution's step at `upMs`, placed there. */
function handUp(s: LiveSeries, level: 0 | 1, upMs: number, queue: QueueBlock): PulsePoint {
  const r = RESOLUTIONS[level];
  const b = s.blocks[level];
  const per = RESOLUTIONS[level + 1]!.stepMs / r.stepMs;
  const from = (upMs - b.startMs) / r.stepMs;
  const mean = from >= 0 && from < b.values.length ? meanOf(b.values.subarray(from, from + per)) : NaN;
  if (!Number.isNaN(mean)) place(s, (level + 1) as 1 | 2, upMs, mean, queue);
  return [upMs, mean];
}

/**
 * The open steps' means handed up without closing them, and the changed blocks queued (before a
 * series leaves memory, or the store closes). A series recorded again later reads its open blocks
 * back and goes on.
 */
export function settle(s: LiveSeries, queue: QueueBlock): void {
  for (const level of [0, 1, 2] as const) {
    const b = s.blocks[level];
    if (level < 2 && b.upMs !== undefined) handUp(s, level as 0 | 1, b.upMs, queue);
    if (!b.dirty) continue;
    queue(s, level, b.startMs, Buffer.from(encodeBlock(b.values)));
    b.dirty = false;
  }
}

/**
 * A series read back (a restart): minutes its open day lacks are made from the stored seconds of
 * the last hour (the open day of minutes is written every half hour, the seconds every 15 s, so a
 * crash loses no more minutes than seconds), and each resolution's last measured step is the one
 * its next value hands up when it ends (an hour that ended while the server was down included).
 */
export function resume(
  s: LiveSeries,
  seconds: readonly { startMs: number; data: Buffer }[],
  nowMs: number,
): void {
  const minutes = s.blocks[1];
  const minuteMs = RESOLUTIONS[1].stepMs;
  const current = Math.floor(nowMs / minuteMs) * minuteMs;
  for (const row of seconds) {
    const slot = (row.startMs - minutes.startMs) / minuteMs;
    if (row.startMs >= current || slot < 0 || slot >= minutes.values.length) continue;
    if (!Number.isNaN(minutes.values[slot]!)) continue;
    const mean = meanOf(new Float32Array(new Uint8Array(row.data).buffer));
    if (Number.isNaN(mean)) continue;
    minutes.values[slot] = mean;
    minutes.dirty = true;
  }
  for (const level of [0, 1] as const) {
    const b = s.blocks[level];
    const last = b.values.findLastIndex((v) => !Number.isNaN(v));
    const upStep = RESOLUTIONS[level + 1]!.stepMs;
    if (last >= 0) b.upMs = Math.floor((b.startMs + last * RESOLUTIONS[level].stepMs) / upStep) * upStep;
  }
}

/**
 * A block's float32 values into `out` (slot k at `fromMs + k` steps), where they fall in it:
 * read from the blob in place, no copy of it.
 */
export function spread(
  out: Float64Array,
  data: Buffer | Float32Array,
  blockStartMs: number,
  fromMs: number,
  stepMs: number,
): void {
  const first = (blockStartMs - fromMs) / stepMs;
  const from = Math.max(0, -first);
  // A Buffer from SQLite is as aligned as its allocator made it: read as float32 in place when it
  // can be, else from one copy (readFloatLE per value was a fifth of a 7-day query).
  const values =
    data instanceof Float32Array
      ? data
      : data.byteOffset % 4 === 0
        ? new Float32Array(data.buffer, data.byteOffset, data.length >> 2)
        : new Float32Array(new Uint8Array(data).buffer, 0, data.length >> 2);
  const to = Math.min(values.length, out.length - first);
  // One native copy (float32 to float64) rather than a loop in JS.
  if (to > from) out.set(values.subarray(from, to), first + from);
}
