import type { DiskTargets, WriteTarget } from './segment-recorder.js';

/**
 * Where a RAID 0 storage writes a stream's next segment: the writable disks in turn (the first
 * `active` of them; the others only when those all fail), skipping for `retryMs` a disk whose
 * write failed (full, not mounted), so one bad disk doesn't stop recording on the rest.
 */
export class DiskPlacement implements DiskTargets {
  private turn = 0;
  private readonly failures = new Map<number, { atMs: number; message: string }>();

  constructor(
    /** The disks new segments may go to (writable modes), in position order. */
    private readonly writable: () => readonly (WriteTarget & { disk: number })[],
    private readonly active: number | undefined,
    private readonly retryMs: number,
  ) {}

  next(nowMs: number): WriteTarget[] {
    const healthy = this.writable().filter((t) => {
      const failure = this.failures.get(t.disk);
      return !failure || nowMs - failure.atMs >= this.retryMs;
    });
    const count = Math.max(1, Math.min(this.active ?? healthy.length, healthy.length));
    const rotating = healthy.slice(0, count);
    const shift = rotating.length > 0 ? this.turn++ % rotating.length : 0;
    return [...rotating.slice(shift), ...rotating.slice(0, shift), ...healthy.slice(count)];
  }

  failed(target: WriteTarget, message: string, nowMs: number): void {
    if (target.disk !== undefined) this.failures.set(target.disk, { atMs: nowMs, message });
  }

  succeeded(target: WriteTarget): void {
    if (target.disk !== undefined) this.failures.delete(target.disk);
  }

  /** What is wrong with the disks that failed lately (for the stream's stats). */
  problems(nowMs: number): string[] {
    return [...this.failures.values()].filter((f) => nowMs - f.atMs < this.retryMs * 4).map((f) => f.message);
  }
}
