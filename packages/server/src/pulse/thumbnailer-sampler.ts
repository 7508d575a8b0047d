import { readFileSync } from 'node:fs';
import type { ThumbnailerUsage } from '../delivery/thumbnails.js';

export interface ThumbnailerSample {
  /** Resident memory of the decoders running now plus the pictures kept, bytes. */
  thumbnailer_memusage: number;
  /** MPEG-TS written to the decoders and JPEG read from them since the previous sample, kbit/s. */
  thumbnailer_in: number;
  thumbnailer_out: number;
}

/**
 * Pulse's thumbnailer figures (spec 000 §9 thumbnailer_memusage, _in, _out) from the thumbnailer
 * (delivery/thumbnails.ts): it runs one short ffmpeg per segment and picture, so its memory is the
 * RSS of the decoders alive at the sample (VmRSS of /proc/<pid>/status; a decode that starts and
 * ends between two samples is not seen) plus the JPEGs it keeps; its traffic is the bytes it wrote
 * to and read from them over the interval.
 */
export class ThumbnailerSampler {
  private last: { ms: number; bytesIn: number; bytesOut: number } | undefined;

  constructor(
    private readonly usage: () => ThumbnailerUsage,
    private readonly proc = '/proc',
  ) {}

  /** The figures now; undefined at the first call (traffic needs an interval). */
  sample(nowMs: number): ThumbnailerSample | undefined {
    const u = this.usage();
    let rss = 0;
    for (const pid of u.pids) rss += residentBytes(this.proc, pid);
    const last = this.last;
    this.last = { ms: nowMs, bytesIn: u.bytesIn, bytesOut: u.bytesOut };
    if (!last || nowMs <= last.ms) return undefined;
    const kbits = (bytes: number) => (Math.max(0, bytes) * 8) / (nowMs - last.ms);
    return {
      thumbnailer_memusage: rss + u.heldBytes,
      thumbnailer_in: kbits(u.bytesIn - last.bytesIn),
      thumbnailer_out: kbits(u.bytesOut - last.bytesOut),
    };
  }
}

/** VmRSS of a process, bytes; 0 when it ended since it was listed. */
export function residentBytes(proc: string, pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`${proc}/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
