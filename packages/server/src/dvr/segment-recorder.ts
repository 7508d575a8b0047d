import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PacketBus } from '../media/packet-bus.js';
import type { Segment } from '../media/segment-window.js';
import type { ArchiveSegment } from './archive-index.js';
import { segmentPath, temporarySegmentPath, type SegmentName } from './layout.js';
import { placeSegment } from './segment-clock.js';

/** Segments waiting for the disk beyond this are dropped (and counted): the live path never waits. */
export const MAX_QUEUED_SEGMENTS = 16;
/** After a failed write, segments are dropped for this long before the disk is tried again. */
export const RETRY_AFTER_FAILURE_MS = 5_000;

export interface RecorderDeps {
  /** ROOT/NAME of the stream. */
  dir: string;
  /** Where a written segment goes (the service's StreamArchive); false if it was refused. */
  append: (segment: ArchiveSegment) => boolean;
  /** End of the newest archived segment (ms), to continue after a restart without overlap. */
  archiveEndMs: () => number | undefined;
  /** A write failed (message for the stats), or (undefined) writes work again. */
  onError: (message: string | undefined, error?: NodeJS.ErrnoException) => void;
  /**
   * RAID 0: where each segment may go, best first (disk placement.ts); each is tried in turn, so a
   * missing or full disk doesn't stop recording on the others. Without it: `dir` alone.
   */
  placement?: DiskTargets;
  /** COPY/NAME of the stream when its storage copies finished segments elsewhere (dvrs `copy`). */
  copyDir?: () => string | undefined;
  /** A copy failed: the archive itself is whole, the copy misses this segment. */
  onCopyError?: (message: string) => void;
  /** Whether recording is wanted at this moment (schedule); segments outside are not written. */
  recording?: (nowMs: number) => boolean;
  now?: () => number;
}

interface Pending extends SegmentName {
  data: Buffer;
}

/** A folder a segment may be written to. */
export interface WriteTarget {
  /** ROOT/DISK/NAME (or ROOT/NAME). */
  dir: string;
  /** The index's disk number (RAID 0). */
  disk?: number;
  /** ROOT/DISK: must exist (a disk not mounted is never written into its empty mount point). */
  mountPoint?: string;
}

export interface DiskTargets {
  /** The folders to try for the next segment, best first. */
  next(nowMs: number): WriteTarget[];
  /** A write there failed (ENOSPC, not mounted…): skipped for a while. */
  failed(target: WriteTarget, message: string, nowMs: number): void;
  /** A write there worked. */
  succeeded(target: WriteTarget): void;
}

/**
 * Writes what one stream's live segmenter cuts into its archive: each segment as a temporary file
 * renamed when whole (layout.ts), one at a time, in order. Nothing here runs on the live path but
 * the push onto a bounded queue: a slow or failing disk drops segments (the next written one
 * starts a new range, flagged as not continuing), never holds up the segmenter.
 */
export class SegmentRecorder {
  private bus: PacketBus | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly queue: Pending[] = [];
  private writing = false;
  /** End (ms) of the last segment taken for writing; undefined after a break. */
  private lastEndMs: number | undefined;
  private failedAtMs: number | undefined;
  /** Segments not written (queue full, disk failing, outside the schedule). */
  dropped = 0;
  written = 0;
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RecorderDeps) {}

  private get now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Follows the stream's bus: a new bus (a stream restart) is a new recording, flagged as such. */
  attach(bus: PacketBus | undefined): void {
    if (bus === this.bus) return;
    this.unsubscribe?.();
    this.bus = bus;
    this.lastEndMs = undefined;
    this.unsubscribe = bus?.segmenter.onSegment((segment) => this.take(segment));
  }

  /** Stops taking segments; resolves once the ones queued are written. */
  async close(): Promise<void> {
    this.attach(undefined);
    await this.settled();
  }

  /** Resolves once every segment taken so far was written (or failed). */
  settled(): Promise<void> {
    return this.idle;
  }

  /** Called on the live path, synchronously, for each segment cut. */
  take(segment: Segment): void {
    const now = this.now;
    const failing = this.failedAtMs !== undefined && now - this.failedAtMs < RETRY_AFTER_FAILURE_MS;
    const wanted = this.deps.recording?.(now) ?? true;
    if (failing || !wanted || this.queue.length >= MAX_QUEUED_SEGMENTS) {
      this.dropped++;
      this.lastEndMs = undefined;
      return;
    }
    const placed = placeSegment({
      nowMs: now,
      durationMs: segment.durationMs,
      discontinuity: segment.discontinuity,
      previousEndMs: this.lastEndMs ?? this.deps.archiveEndMs(),
      continues: this.lastEndMs !== undefined,
    });
    this.lastEndMs = placed.startMs + placed.durationMs;
    this.queue.push({ ...placed, data: segment.data });
    if (!this.writing) this.idle = this.drain();
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) await this.write(next);
    } finally {
      this.writing = false;
    }
  }

  private async write(segment: Pending): Promise<void> {
    const name: SegmentName = {
      startMs: segment.startMs,
      durationMs: segment.durationMs,
      discontinuity: segment.discontinuity,
    };
    const placement = this.deps.placement;
    const targets = placement ? placement.next(this.now) : [{ dir: this.deps.dir }];
    let failure: { message: string; error?: NodeJS.ErrnoException } = {
      message: `no disk of ${this.deps.dir} can be written now`,
    };
    for (const target of targets) {
      const error = await writeSegment(target, name, segment.data);
      if (!error) {
        placement?.succeeded(target);
        return this.landed(name, segment.data.length, target);
      }
      failure = { message: writeFailure(target.dir, error), error };
      placement?.failed(target, failure.message, this.now);
    }
    this.failedAtMs = this.now;
    this.dropped++;
    // The media after a failure does not continue what the archive holds.
    this.lastEndMs = undefined;
    this.queue.length = 0;
    this.deps.onError(failure.message, failure.error);
  }

  private async landed(name: SegmentName, bytes: number, target: WriteTarget): Promise<void> {
    if (this.failedAtMs !== undefined) {
      this.failedAtMs = undefined;
      this.deps.onError(undefined);
    }
    this.written++;
    this.deps.append({ ...name, bytes, ...(target.disk !== undefined ? { disk: target.disk } : {}) });
    await this.copy(name, target.dir);
  }

  /** Copies a finished segment to the copy root, in the same layout, the same way (temporary, renamed). */
  private async copy(name: SegmentName, writtenDir: string): Promise<void> {
    const copyDir = this.deps.copyDir?.();
    if (!copyDir) return;
    const temporary = temporarySegmentPath(copyDir, name.startMs);
    try {
      await mkdir(dirname(temporary), { recursive: true });
      await copyFile(segmentPath(writtenDir, name), temporary);
      await rename(temporary, segmentPath(copyDir, name));
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      this.deps.onCopyError?.(writeFailure(copyDir, error as NodeJS.ErrnoException));
    }
  }
}

/** Writes one segment as a temporary file renamed when whole; the error, if it could not. */
async function writeSegment(
  target: WriteTarget,
  name: SegmentName,
  data: Buffer,
): Promise<NodeJS.ErrnoException | undefined> {
  const temporary = temporarySegmentPath(target.dir, name.startMs);
  try {
    if (target.mountPoint && !(await stat(target.mountPoint)).isDirectory())
      throw Object.assign(new Error(`${target.mountPoint} is not a folder`), { code: 'ENOTDIR' });
    await mkdir(dirname(temporary), { recursive: true });
    await writeFile(temporary, data);
    await rename(temporary, segmentPath(target.dir, name));
    return undefined;
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    return error as NodeJS.ErrnoException;
  }
}

/** What the operator reads in the stream's stats: where, and why in words. */
export function writeFailure(dir: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOSPC':
      return `disk full: can't write the archive in ${dir}, recording stopped until space is freed`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to write the archive in ${dir}`;
    case 'ENOENT':
      return `${dir} is missing (a disk not mounted?)`;
    case 'ENOTDIR':
    case 'EEXIST':
      return `can't create the archive folder ${dir}: a file is in the way`;
    case 'EROFS':
      return `the archive folder ${dir} is on a read-only file system`;
    default:
      return `can't write the archive in ${dir}: ${error.message}`;
  }
}
