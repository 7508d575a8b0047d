/**
 * The three resolutions of the Pulse store (issue 21): a value a second for the last hour, a minute
 * for 7 days, an hour for a year. Values are kept in blocks (a row each in SQLite): a minute of
 * seconds, a day of minutes, a day of hours, so the store writes one blob per series and block
 * instead of a row per point (3,000 series at 1,000 streams would be 3,000 rows a second).
 * Minutes by the day: a 7-day range of 100 streams is 800 rows, not 16,800 (SQLite makes a Buffer
 * per row read, ~2.5 µs each: the hour blocks alone were over the 50 ms a query may take).
 */
export interface Resolution {
  /** 0 seconds, 1 minutes, 2 hours: the `res` column. */
  level: 0 | 1 | 2;
  stepMs: number;
  /** Values per block. */
  blockLength: number;
  /** How far back values are kept. */
  keepMs: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const RESOLUTIONS: readonly [Resolution, Resolution, Resolution] = [
  { level: 0, stepMs: 1000, blockLength: 60, keepMs: HOUR_MS },
  { level: 1, stepMs: 60_000, blockLength: 1440, keepMs: 7 * DAY_MS },
  { level: 2, stepMs: HOUR_MS, blockLength: 24, keepMs: 365 * DAY_MS },
];

export const blockSpanMs = (r: Resolution): number => r.stepMs * r.blockLength;
export const blockStart = (r: Resolution, ms: number): number =>
  Math.floor(ms / blockSpanMs(r)) * blockSpanMs(r);

/**
 * Most blocks a series can hold at once: what is kept plus the block being written (and one more a
 * block boundary can leave until the next prune). The disk bound is this times the series bound.
 */
export const blocksPerSeries = (r: Resolution): number => Math.ceil(r.keepMs / blockSpanMs(r)) + 2;

/**
 * The resolution a range is answered in (the HTTP contract): seconds when it starts within the last
 * hour, minutes within 7 days, hours beyond.
 */
export function resolutionFor(fromMs: number, nowMs: number): Resolution {
  for (const r of RESOLUTIONS) if (fromMs >= nowMs - r.keepMs) return r;
  return RESOLUTIONS[2];
}

/** A block's values as stored: little-endian float32, NaN where nothing was measured. */
export const encodeBlock = (values: Float32Array): Buffer =>
  Buffer.from(values.buffer, values.byteOffset, values.byteLength);

export function decodeBlock(blob: Buffer, length: number): Float32Array {
  const values = new Float32Array(length).fill(NaN);
  const copy = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
  values.set(copy.subarray(0, Math.min(length, copy.length)));
  return values;
}

/** The mean of the measured values (NaN when none): a minute from its seconds, an hour from its minutes. */
export function meanOf(values: Float32Array): number {
  let sum = 0;
  let count = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v;
    count++;
  }
  return count === 0 ? NaN : sum / count;
}
