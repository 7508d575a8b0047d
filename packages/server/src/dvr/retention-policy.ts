/** What retention reads of an archive: its segments oldest first, and its size. */
export interface RetainedArchive {
  readonly count: number;
  readonly bytes: number;
  at(i: number): { startMs: number; durationMs: number; bytes: number };
}

export interface StreamLimits {
  /** dvr_limit: archive depth kept, in seconds. */
  dvrLimitSeconds?: number | undefined;
  /** disk_space: the most bytes this stream's archive may take. */
  diskSpaceBytes?: number | undefined;
}

/**
 * How many of the oldest segments go (spec 001 §3 DVR: dvr_limit, disk_space): those that ended
 * before the archive depth (one still partly inside it stays, so the archive covers the whole
 * depth), and then as many more as it takes for the archive to fit disk_space.
 */
export function expiredCount(archive: RetainedArchive, nowMs: number, limits: StreamLimits): number {
  let count = 0;
  const { dvrLimitSeconds, diskSpaceBytes } = limits;
  if (dvrLimitSeconds !== undefined && dvrLimitSeconds > 0) {
    const cutoffMs = nowMs - dvrLimitSeconds * 1000;
    while (count < archive.count) {
      const segment = archive.at(count);
      if (segment.startMs + segment.durationMs > cutoffMs) break;
      count++;
    }
  }
  if (diskSpaceBytes !== undefined) {
    let bytes = archive.bytes;
    for (let i = 0; i < count; i++) bytes -= archive.at(i).bytes;
    while (count < archive.count && bytes > diskSpaceBytes) bytes -= archive.at(count++).bytes;
  }
  return count;
}

export interface DiskUsage {
  totalBytes: number;
  /** Bytes free to unprivileged users (statfs bavail), what a writer can still use. */
  freeBytes: number;
}

/** disk_limit (percent of the partition): bytes to free for the partition to be at most that full. */
export function diskExcessBytes(disk: DiskUsage, limitPercent: number | undefined): number {
  if (limitPercent === undefined || disk.totalBytes <= 0) return 0;
  const used = disk.totalBytes - disk.freeBytes;
  return Math.max(0, Math.ceil(used - (disk.totalBytes * limitPercent) / 100));
}
