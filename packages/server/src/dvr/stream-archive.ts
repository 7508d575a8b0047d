import type { StreamStats } from '@sluice/api';
import { type ArchiveIndex, type ArchiveRange, type ArchiveSegment, RANGE_GAP_MS } from './archive-index.js';

export type DvrInfo = NonNullable<StreamStats['dvr_info']>;

/**
 * One stream's archive as the service keeps it: the index (shared with archive playback) and its
 * ranges kept in step as segments are added and removed, so stats each second cost the number of
 * ranges, not the number of segments (a day of 2 s segments is 43,200).
 * Every change to the index goes through here.
 */
export class StreamArchive {
  private readonly rangeList: ArchiveRange[];

  constructor(readonly index: ArchiveIndex) {
    this.rangeList = index.ranges();
  }

  get ranges(): readonly ArchiveRange[] {
    return this.rangeList;
  }

  /** Adds a newly written segment; false when it is not newer than the newest (the index refuses it). */
  append(segment: ArchiveSegment): boolean {
    const end = this.index.endMs;
    if (!this.index.add(segment)) return false;
    const last = this.rangeList.at(-1);
    const segmentEnd = segment.startMs + segment.durationMs;
    if (!last || end === undefined || segment.startMs - end > RANGE_GAP_MS)
      this.rangeList.push({ fromMs: segment.startMs, durationMs: segment.durationMs });
    else last.durationMs = Math.max(last.fromMs + last.durationMs, segmentEnd) - last.fromMs;
    return true;
  }

  /** Takes the oldest segment out (its file is the caller's to delete). */
  dropOldest(): ArchiveSegment | undefined {
    const oldest = this.index.removeOldest();
    if (!oldest) return undefined;
    const first = this.rangeList[0]!;
    const next = this.index.firstMs;
    const end = first.fromMs + first.durationMs;
    // The range held only this segment (or the next one starts a range of its own).
    if (next === undefined || next >= end) this.rangeList.shift();
    else {
      first.durationMs = end - next;
      first.fromMs = next;
    }
    return oldest;
  }

  /** dvr_info (spec 000 §3 stream stats), in seconds: `from` is UNIX seconds of the oldest moment kept. */
  info(nowMs: number): DvrInfo | undefined {
    const first = this.index.firstMs;
    if (first === undefined) return undefined;
    let durationMs = 0;
    for (const range of this.rangeList) durationMs += range.durationMs;
    const from = Math.floor(first / 1000);
    return {
      from,
      depth: Math.max(0, Math.round(nowMs / 1000) - from),
      duration: Math.round(durationMs / 1000),
      disk_size: this.index.bytes,
      ranges: this.rangeList.map((r) => ({
        from: Math.floor(r.fromMs / 1000),
        duration: Math.round(r.durationMs / 1000),
      })),
    };
  }
}
