import { describe, expect, it } from 'vitest';
import { ArchiveIndex } from './archive-index.js';
import { StreamArchive } from './stream-archive.js';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const seg = (startMs: number, durationMs = 2000, bytes = 100) => ({
  startMs,
  durationMs,
  discontinuity: false,
  bytes,
});

describe('stream archive', () => {
  it('keeps ranges in step as segments come and go, and reports dvr_info in seconds', () => {
    const archive = new StreamArchive(new ArchiveIndex('/nowhere'));
    expect(archive.info(T0)).toBeUndefined();
    for (let i = 0; i < 3; i++) archive.append(seg(T0 + i * 2000));
    // An outage of 10 s, then two more segments.
    archive.append(seg(T0 + 16_000));
    archive.append(seg(T0 + 18_000));
    expect(archive.ranges).toEqual(archive.index.ranges());
    expect(archive.info(T0 + 30_000)).toEqual({
      from: T0 / 1000,
      depth: 30,
      duration: 10,
      disk_size: 500,
      ranges: [
        { from: T0 / 1000, duration: 6 },
        { from: T0 / 1000 + 16, duration: 4 },
      ],
    });
    archive.dropOldest();
    expect(archive.ranges).toEqual(archive.index.ranges());
    archive.dropOldest();
    archive.dropOldest();
    expect(archive.ranges).toEqual([{ fromMs: T0 + 16_000, durationMs: 4000 }]);
    expect(archive.info(T0 + 30_000)?.disk_size).toBe(200);
  });

  it('refuses a segment older than the newest and leaves the ranges as they were', () => {
    const archive = new StreamArchive(new ArchiveIndex('/nowhere'));
    archive.append(seg(T0 + 4000));
    expect(archive.append(seg(T0))).toBe(false);
    expect(archive.ranges).toEqual([{ fromMs: T0 + 4000, durationMs: 2000 }]);
  });
});
