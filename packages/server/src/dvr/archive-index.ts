import { type Stats, statSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSegmentFileName, segmentPath, type SegmentName } from './layout.js';

export interface ArchiveSegment extends SegmentName {
  bytes: number;
  /** Which of the index's folders (`dirs`, RAID 0 disks) holds the file; absent with one folder. */
  disk?: number;
}

export interface ArchiveRange {
  fromMs: number;
  durationMs: number;
}

/**
 * Two segments whose times are this close are one range: the live segmenter's wall-clock stamps
 * jitter by an event-loop turn, a real gap (an outage, a restart) is seconds.
 */
export const RANGE_GAP_MS = 1_000;

/**
 * The segments of one stream's archive, oldest first, in columns (a day of 2 s segments of 100
 * streams is 4.3 million entries: objects would cost ~100 bytes each, these ~24). Segments are
 * only ever added at the end and removed from the start (retention).
 */
export class ArchiveIndex {
  private start = new Float64Array(1024);
  private duration = new Uint32Array(1024);
  private size = new Float64Array(1024);
  private flags = new Uint8Array(1024);
  private disks = new Uint8Array(1024);
  private head = 0;
  private tail = 0;
  private bytesTotal = 0;

  /**
   * `dirs`: the stream's folder on each disk of a RAID 0 storage (ROOT/DISK/NAME), a segment's
   * `disk` saying which; one folder (ROOT/NAME) otherwise.
   */
  constructor(
    readonly dir: string,
    readonly dirs: readonly string[] = [dir],
  ) {}

  /**
   * Reads a stream's folder (ROOT/NAME) back: every whole segment, in time order. Temporary files
   * of a segment that was being written when the process died are removed.
   */
  static async load(dir: string): Promise<ArchiveIndex> {
    return ArchiveIndex.loadAll([dir]);
  }

  /** Reads a stream's folders on several disks (RAID 0) back into one index, in time order. */
  static async loadAll(dirs: readonly string[]): Promise<ArchiveIndex> {
    const index = new ArchiveIndex(dirs[0]!, dirs);
    const found: ArchiveSegment[] = [];
    for (const [disk, dir] of dirs.entries())
      for (const segment of await readFolder(dir))
        found.push(dirs.length > 1 ? { ...segment, disk } : segment);
    // Stable: one disk's segments come hour folder by hour folder, already in order.
    found.sort((a, b) => a.startMs - b.startMs);
    for (const segment of found) index.add(segment);
    return index;
  }

  get count(): number {
    return this.tail - this.head;
  }

  get bytes(): number {
    return this.bytesTotal;
  }

  /** Start of the oldest segment (ms since epoch), undefined when empty. */
  get firstMs(): number | undefined {
    return this.count > 0 ? this.start[this.head] : undefined;
  }

  /** End of the newest segment (ms since epoch), undefined when empty. */
  get endMs(): number | undefined {
    return this.count > 0 ? this.start[this.tail - 1]! + this.duration[this.tail - 1]! : undefined;
  }

  at(i: number): ArchiveSegment {
    const k = this.head + i;
    const segment: ArchiveSegment = {
      startMs: this.start[k]!,
      durationMs: this.duration[k]!,
      discontinuity: this.flags[k] === 1,
      bytes: this.size[k]!,
    };
    if (this.dirs.length > 1) segment.disk = this.disks[k]!;
    return segment;
  }

  pathOf(segment: SegmentName & { disk?: number }): string {
    return segmentPath(this.dirs[segment.disk ?? 0] ?? this.dir, segment);
  }

  /** Appends a segment; one that starts before the newest one's start is refused (false). */
  add(segment: ArchiveSegment): boolean {
    if (this.count > 0 && segment.startMs <= this.start[this.tail - 1]!) return false;
    if (this.tail === this.start.length) this.grow();
    this.start[this.tail] = segment.startMs;
    this.duration[this.tail] = segment.durationMs;
    this.size[this.tail] = segment.bytes;
    this.flags[this.tail] = segment.discontinuity ? 1 : 0;
    this.disks[this.tail] = segment.disk ?? 0;
    this.tail++;
    this.bytesTotal += segment.bytes;
    return true;
  }

  /** Takes the oldest segment out of the index (its file is the caller's to delete). */
  removeOldest(): ArchiveSegment | undefined {
    if (this.count === 0) return undefined;
    const oldest = this.at(0);
    this.head++;
    this.bytesTotal -= oldest.bytes;
    return oldest;
  }

  /** Position of the first segment that ends after `ms` (count when none does). */
  private firstEndingAfter(ms: number): number {
    let lo = this.head;
    let hi = this.tail;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.start[mid]! + this.duration[mid]! <= ms) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  /** The segments that overlap [fromMs, toMs), oldest first. */
  segments(fromMs: number, toMs: number): ArchiveSegment[] {
    const found: ArchiveSegment[] = [];
    for (let i = this.firstEndingAfter(fromMs); i < this.count; i++) {
      const segment = this.at(i);
      if (segment.startMs >= toMs) break;
      found.push(segment);
    }
    return found;
  }

  /** The stretches of time the archive covers, oldest first: a gap over RANGE_GAP_MS splits them. */
  ranges(): ArchiveRange[] {
    const ranges: ArchiveRange[] = [];
    let from = 0;
    let end = 0;
    for (let k = this.head; k < this.tail; k++) {
      const start = this.start[k]!;
      if (k === this.head || start - end > RANGE_GAP_MS) {
        if (k !== this.head) ranges.push({ fromMs: from, durationMs: end - from });
        from = start;
      }
      end = Math.max(end, start + this.duration[k]!);
    }
    if (this.count > 0) ranges.push({ fromMs: from, durationMs: end - from });
    return ranges;
  }

  private grow(): void {
    const live = this.count;
    // Compact when retention freed the front half, else double.
    const capacity = this.head >= this.start.length / 2 ? this.start.length : this.start.length * 2;
    const move = <T extends Float64Array | Uint32Array | Uint8Array>(from: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(from.subarray(this.head, this.tail));
      return next;
    };
    this.start = move(this.start, (n) => new Float64Array(n));
    this.duration = move(this.duration, (n) => new Uint32Array(n));
    this.size = move(this.size, (n) => new Float64Array(n));
    this.flags = move(this.flags, (n) => new Uint8Array(n));
    this.disks = move(this.disks, (n) => new Uint8Array(n));
    this.head = 0;
    this.tail = live;
  }
}

/** The whole segments of one stream folder, in time order; leftover temporary files are removed. */
async function readFolder(dir: string): Promise<ArchiveSegment[]> {
  const segments: ArchiveSegment[] = [];
  for (const year of await digitFolders(dir, 4))
    for (const month of await digitFolders(join(dir, year), 2))
      for (const day of await digitFolders(join(dir, year, month), 2))
        for (const hour of await digitFolders(join(dir, year, month, day), 2)) {
          const folder = join(dir, year, month, day, hour);
          const found: ArchiveSegment[] = [];
          for (const name of await readdir(folder).catch(() => [] as string[])) {
            if (name.endsWith('.tmp')) {
              await rm(join(folder, name), { force: true });
              continue;
            }
            const parsed = parseSegmentFileName(name);
            if (!parsed) continue;
            // statSync: a promise per file cost ~11 µs of the main thread each (432,000 files of 10
            // day archives: 5.4 s of a 9 s start); one hour folder (≤ 1,800 files) at a time holds
            // the event loop a few ms, and the readdir of the next folder yields (bench/dvr.mjs).
            const info = statOrUndefined(join(folder, name));
            if (info?.isFile()) found.push({ ...parsed, bytes: info.size });
          }
          found.sort((a, b) => a.startMs - b.startMs);
          segments.push(...found);
        }
  return segments;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    // Removed since the listing (retention, an operator): not a segment any more.
    return undefined;
  }
}

async function digitFolders(dir: string, digits: number): Promise<string[]> {
  const pattern = new RegExp(`^\\d{${digits}}$`);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && pattern.test(e.name))
    .map((e) => e.name)
    .sort();
}
