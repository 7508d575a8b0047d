import { TS_CLOCK, tsDiff } from './ts-packet.js';

/**
 * Where the HLS segmenter cuts, on the 90 kHz clock of the primary track.
 *
 * EXT-X-TARGETDURATION may never change during a playlist's life (RFC 8216 §6.2.1) and every EXTINF
 * rounded to whole seconds must stay within it (§4.3.3.1), so it is fixed up front from the
 * configured duration, and a segment is cut:
 * - at a keyframe once it is at least target − GOP/2 long: that keyframe is nearer the target than
 *   the next one is expected to be (RTMP's millisecond timestamps put keyframes a fraction short;
 *   audio-only streams, where every frame is a cut point, come out within half a frame of it);
 * - at any frame that would take it past TARGETDURATION + 0.5 s (a GOP longer than the target: the
 *   next segment then starts at a frame that is no keyframe, which players decoding on handle);
 * - after a source switch, at the new source's second keyframe: players near the live edge ran dry
 *   during the outage, and a one-GOP first segment reaches them a target duration minus a GOP sooner.
 */
export class CutClock {
  readonly targetDurationS: number;
  private readonly targetTicks: number;
  /** The longest segment whose EXTINF still rounds to TARGETDURATION. */
  readonly maxTicks: number;
  private lastKeyDts: number | undefined;
  private gopTicks = 0;
  /** The first segment of a new timeline is still open: it ends at the next keyframe. */
  private firstAfterSwitch = false;
  /** Spacing of the last two frames: how long the newest frame lasts. */
  frameTicks = 0;

  constructor(targetDurationMs: number) {
    this.targetDurationS = Math.max(1, Math.ceil(targetDurationMs / 1000));
    this.targetTicks = (targetDurationMs * TS_CLOCK) / 1000;
    this.maxTicks = ((this.targetDurationS * 1000 + 499) * TS_CLOCK) / 1000;
  }

  /** Notes a keyframe of the timeline, for the GOP length. */
  keyframe(dts: number | undefined): void {
    if (dts === undefined) return;
    if (this.lastKeyDts !== undefined) {
      const gop = tsDiff(dts, this.lastKeyDts);
      if (gop > 0) this.gopTicks = gop;
    }
    this.lastKeyDts = dts;
  }

  /** Whether the segment, `elapsedTicks` long at this frame, ends before it. */
  cutBefore(keyframe: boolean, elapsedTicks: number): boolean {
    if (elapsedTicks <= 0) return false;
    if (keyframe && this.firstAfterSwitch) {
      this.firstAfterSwitch = false;
      return true;
    }
    if (keyframe && elapsedTicks >= this.targetTicks - this.gopTicks / 2) return true;
    // Half a frame of margin: frame spacing jitters (RTMP's whole milliseconds).
    return elapsedTicks + 1.5 * this.frameTicks > this.maxTicks;
  }

  /** The step from the previous frame of the same timeline. */
  step(ticks: number): void {
    if (ticks > 0) this.frameTicks = ticks;
  }

  /** A new timeline (a source switch, `afterMedia` when one played before): its GOP is not known yet. */
  reset(afterMedia: boolean): void {
    this.lastKeyDts = undefined;
    this.gopTicks = 0;
    // At a stream's start nobody ran dry: its first segment is cut as any other.
    this.firstAfterSwitch = afterMedia;
  }
}
