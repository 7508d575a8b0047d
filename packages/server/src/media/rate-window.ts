/**
 * A per-second counter over a sliding window: bytes for a bitrate, errors for an error rate.
 * Only whole seconds count, so the figure does not jump inside the current second.
 */
export class RateWindow {
  private readonly amounts: Float64Array;
  private readonly seconds: Float64Array;
  private firstSecond = -1;
  total = 0;

  constructor(private readonly windowSeconds = 5) {
    this.amounts = new Float64Array(windowSeconds + 1);
    this.seconds = new Float64Array(windowSeconds + 1).fill(-1);
  }

  add(amount: number, nowMs: number): void {
    const second = Math.floor(nowMs / 1000);
    const slot = second % this.amounts.length;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.amounts[slot] = 0;
    }
    this.amounts[slot]! += amount;
    this.total += amount;
    if (this.firstSecond < 0) this.firstSecond = second;
  }

  /** The average per second over the last complete seconds of the window (fewer right after the start). */
  perSecond(nowMs: number): number {
    if (this.firstSecond < 0) return 0;
    const current = Math.floor(nowMs / 1000);
    const span = Math.min(this.windowSeconds, current - this.firstSecond);
    if (span <= 0) return 0;
    let sum = 0;
    for (let s = current - span; s < current; s++) {
      const slot = s % this.amounts.length;
      if (this.seconds[slot] === s) sum += this.amounts[slot]!;
    }
    return sum / span;
  }

  reset(): void {
    this.amounts.fill(0);
    this.seconds.fill(-1);
    this.firstSecond = -1;
  }
}
