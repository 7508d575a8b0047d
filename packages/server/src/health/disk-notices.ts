import { statfs } from 'node:fs/promises';
import { envMs } from './env-ms.js';

/** Above this share of a partition used, its paths are a header notice (spec 000: a disk over 95 %). */
export const DISK_FULL_PERCENT = 95;
/** How often the partitions are looked at: a notice appears within this (plus one stats second). */
const CHECK_INTERVAL_MS = envMs('SLUICE_DISK_CHECK_MS', 3000);

/**
 * The threshold, from SLUICE_DISK_FULL_PERCENT when set (a decimal percentage: the tests set one
 * just above the disk's use now, then fill the disk past it with fallocate); 95 otherwise.
 */
export function diskFullPercent(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SLUICE_DISK_FULL_PERCENT);
  return env.SLUICE_DISK_FULL_PERCENT && Number.isFinite(value) ? value : DISK_FULL_PERCENT;
}

/** Used share as `df` shows it: used over what users can have (root's reserve left out). */
export function usedPercent(s: { blocks: number; bfree: number; bavail: number }): number {
  const used = s.blocks - s.bfree;
  const usable = used + s.bavail;
  return usable > 0 ? (used / usable) * 100 : 0;
}

/**
 * error_disk_full while a partition holding the config, a DVR root or a VOD folder is used past
 * the threshold: one notice naming each full path and its use, gone at the first check below it.
 * A path that can't be read (a DVR root not made yet) is skipped: the DVR says so itself.
 */
export class DiskNotices {
  private notice: string | undefined;
  private readonly timer: NodeJS.Timeout;
  private checking = false;

  constructor(
    private readonly paths: () => string[],
    private readonly thresholdPercent = diskFullPercent(),
  ) {
    this.timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    this.timer.unref();
    void this.check();
  }

  notices(): Record<string, string> {
    return this.notice ? { error_disk_full: this.notice } : {};
  }

  close(): void {
    clearInterval(this.timer);
  }

  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const full: string[] = [];
      for (const path of this.paths()) {
        const s = await statfs(path).catch(() => undefined);
        if (!s) continue;
        const percent = usedPercent(s);
        if (percent > this.thresholdPercent) full.push(`${path} ${percent.toFixed(1)} % used`);
      }
      this.notice =
        full.length > 0
          ? `Disk almost full (over ${this.thresholdPercent} %): ${full.join(', ')}`
          : undefined;
    } finally {
      this.checking = false;
    }
  }
}
