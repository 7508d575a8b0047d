import { tsDiff } from './ts-packet.js';

/**
 * A hole in the wall-clock timeline shorter than this is not listed as EXT-X-GAP: a player steps
 * over it (hls.js nudges past 0.1 s holes), and a switch back, which replays what the returning
 * source sent from its keyframe, leaves one of a few frames at most.
 */
const MIN_GAP_MS = 200;

/**
 * Whether the segmenter lists an outage as EXT-X-GAP segments. Off: with it, hls.js stood still for
 * no longer than the outage in 7 of 9 runs of the ten-failover test, but twice froze for 6.4 s and
 * 11.1 s at a failover (not understood yet), worse than the ~0.4 s past the outage without it.
 */
export const LIST_OUTAGE_GAPS = false;

/**
 * How long the wall clock ran with no media between the end of one timeline (a source that went
 * silent) and the first keyframe of the next: the outage, kept in the HLS timeline as EXT-X-GAP. A
 * player that keeps its distance to the live edge through the outage still has its buffer at the
 * next one; without it each outage ate the buffer for good, and at the live edge a player waits,
 * at each failover, for the new source's first segment and a playlist refresh on top of the outage.
 */
export class WallGap {
  /** When the last access unit of the primary track came (performance.now(), ms), and its DTS. */
  private lastWallMs = 0;
  private lastDts: number | undefined;
  /** Where on the wall clock the ended timeline's media ends, until the next one starts. */
  private endedAtWallMs: number | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  frame(dts: number | undefined): void {
    if (dts === undefined) return;
    this.lastDts = dts;
    this.lastWallMs = this.now();
  }

  /** The timeline's media ends at `endDts` (before its last frame's arrival, when video was trimmed). */
  ended(endDts: number | undefined): void {
    if (endDts === undefined || this.lastDts === undefined) return;
    this.endedAtWallMs = this.lastWallMs + tsDiff(endDts, this.lastDts) / 90;
    this.lastDts = undefined;
  }

  /**
   * The ended timeline is followed at once by the next (a planned switch): no gap to list. The video
   * trimmed to the old source's audio end would otherwise count as one.
   */
  forget(): void {
    this.endedAtWallMs = undefined;
  }

  /** A new timeline starts now: the hole before it (ms), 0 if none worth listing. */
  started(): number {
    const ended = this.endedAtWallMs;
    this.endedAtWallMs = undefined;
    if (ended === undefined) return 0;
    const gapMs = Math.round(this.now() - ended);
    return gapMs >= MIN_GAP_MS ? gapMs : 0;
  }
}
