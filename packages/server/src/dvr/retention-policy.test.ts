import { describe, expect, it } from 'vitest';
import { diskExcessBytes, expiredCount } from './retention-policy.js';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
/** Ten 2 s segments of 100 bytes from T0. */
const ten = Array.from({ length: 10 }, (_, i) => ({ startMs: T0 + i * 2000, durationMs: 2000, bytes: 100 }));
const archive = { count: ten.length, bytes: 1000, at: (i: number) => ten[i]! };

describe('retention policy', () => {
  it('dvr_limit: deletes the segments that ended before the archive depth, oldest first', () => {
    const now = T0 + 20_000;
    expect(expiredCount(archive, now, { dvrLimitSeconds: 10 })).toBe(5);
    // A segment still partly inside the depth is kept: the archive covers the whole depth.
    expect(expiredCount(archive, now, { dvrLimitSeconds: 9 })).toBe(5);
    expect(expiredCount(archive, now, { dvrLimitSeconds: 3600 })).toBe(0);
    expect(expiredCount(archive, now, {})).toBe(0);
  });

  it('disk_space: deletes the oldest until the archive fits', () => {
    expect(expiredCount(archive, T0, { diskSpaceBytes: 1000 })).toBe(0);
    expect(expiredCount(archive, T0, { diskSpaceBytes: 999 })).toBe(1);
    expect(expiredCount(archive, T0, { diskSpaceBytes: 250 })).toBe(8);
    expect(expiredCount(archive, T0, { diskSpaceBytes: 0 })).toBe(10);
  });

  it('the stricter limit wins', () => {
    expect(expiredCount(archive, T0 + 20_000, { dvrLimitSeconds: 10, diskSpaceBytes: 250 })).toBe(8);
  });

  it('disk_limit: how many bytes to free for the partition to be at most that full', () => {
    const disk = { totalBytes: 1000, freeBytes: 50 };
    expect(diskExcessBytes(disk, 90)).toBe(50);
    expect(diskExcessBytes(disk, 95)).toBe(0);
    expect(diskExcessBytes(disk, undefined)).toBe(0);
    expect(diskExcessBytes({ totalBytes: 0, freeBytes: 0 }, 50)).toBe(0);
  });
});
