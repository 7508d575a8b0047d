import { rm, rmdir, statfs } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { type DiskUsage, diskExcessBytes, expiredCount, type StreamLimits } from './retention-policy.js';
import type { StreamArchive } from './stream-archive.js';

/** One stream's archive as retention sees it. */
export interface RetainedStream {
  archive: StreamArchive;
  limits: StreamLimits & { diskLimitPercent?: number | undefined };
  root: string;
  /** RAID 0: whether this disk's files may be deleted (its mode); a segment there leaves the archive, its file stays. */
  deletable?: ((disk: number) => boolean) | undefined;
}

/**
 * Deletes the `count` oldest segments of an archive: out of the index first (archive playback no
 * longer lists them), then their files, then hour/day/month/year folders left empty. Only files
 * the index lists, at paths layout.ts builds under ROOT/NAME, are ever removed. Returns the bytes
 * freed.
 */
export async function deleteOldest(
  archive: StreamArchive,
  count: number,
  deletable: (disk: number) => boolean = () => true,
): Promise<number> {
  const folders = new Map<string, string>();
  let freed = 0;
  for (let i = 0; i < count; i++) {
    const segment = archive.dropOldest();
    if (!segment) break;
    const disk = segment.disk ?? 0;
    if (!deletable(disk)) continue;
    const dir = archive.index.dirs[disk] ?? archive.index.dir;
    const path = archive.index.pathOf(segment);
    // layout.ts builds paths under the stream's folder; anything else is a bug, and is left alone.
    if (!path.startsWith(dir + sep)) continue;
    await rm(path, { force: true });
    freed += segment.bytes;
    folders.set(dirname(path), dir);
  }
  for (const [folder, dir] of folders) await removeEmptyUpTo(folder, dir);
  return freed;
}

/** Removes `folder` and its parents while they are empty, stopping below the stream's folder. */
async function removeEmptyUpTo(folder: string, streamDir: string): Promise<void> {
  for (let at = folder; at.startsWith(streamDir + sep); at = dirname(at)) {
    // rmdir refuses a folder that holds anything (another segment, a file not ours): that is the stop.
    const removed = await rmdir(at).then(
      () => true,
      () => false,
    );
    if (!removed) return;
  }
}

/** dvr_limit and disk_space of one stream (after each write, and on the retention tick). */
export async function retainStream(stream: RetainedStream, nowMs: number): Promise<number> {
  const count = expiredCount(stream.archive.index, nowMs, stream.limits);
  return count > 0 ? deleteOldest(stream.archive, count, stream.deletable) : 0;
}

/** The partition a root is on, as statfs sees it; undefined when it can't be read. */
export async function diskUsage(root: string): Promise<DiskUsage | undefined> {
  const info = await statfs(root).catch(() => undefined);
  if (!info) return undefined;
  return { totalBytes: info.blocks * info.bsize, freeBytes: info.bavail * info.bsize };
}

/**
 * disk_limit (percent of the partition): while the partition of a root is fuller than the limit,
 * the oldest segment among the streams recording there goes, one at a time, so streams sharing a
 * disk lose their oldest material first whoever it belongs to.
 */
export async function retainDisks(
  streams: readonly RetainedStream[],
  usage: (root: string) => Promise<DiskUsage | undefined> = diskUsage,
): Promise<void> {
  const byRoot = new Map<string, RetainedStream[]>();
  for (const stream of streams) {
    if (stream.limits.diskLimitPercent === undefined) continue;
    byRoot.set(stream.root, [...(byRoot.get(stream.root) ?? []), stream]);
  }
  for (const [root, group] of byRoot) {
    const disk = await usage(root);
    if (!disk) continue;
    const limit = Math.min(...group.map((s) => s.limits.diskLimitPercent!));
    let excess = diskExcessBytes(disk, limit);
    while (excess > 0) {
      let oldest: RetainedStream | undefined;
      for (const stream of group) {
        const first = stream.archive.index.firstMs;
        if (first !== undefined && (oldest === undefined || first < oldest.archive.index.firstMs!))
          oldest = stream;
      }
      if (!oldest) break;
      const freed = await deleteOldest(oldest.archive, 1, oldest.deletable);
      // A segment of 0 bytes frees nothing but still counts as progress toward an empty archive.
      excess -= Math.max(freed, 1);
    }
  }
}
