import type { Pes } from '../fmp4/ts-elementary.js';
import { TS_CLOCK, tsDiff } from '../ts-packet.js';

/** One partial segment as cut: whole access units and the audio that came with them. */
export interface CutPart {
  video: Pes[];
  audio: Pes[];
  /** Starts with a keyframe: a player can begin decoding here (EXT-X-PART INDEPENDENT=YES). */
  independent: boolean;
  /** The first part of a segment. */
  segmentStart: boolean;
  /** The first part after a break in the timeline (a source switch, a timestamp jump). */
  discontinuity: boolean;
  /** The first access unit's DTS as it came (33 bits) and on the unwrapped timeline (90 kHz). */
  firstDts: number;
  start90k: number;
  /** From its first access unit to the next one's (90 kHz). */
  duration90k: number;
  /**
   * The wall clock (ms) at unwrapped time 0 of the part's timeline, for EXT-X-PROGRAM-DATE-TIME:
   * shared by its parts, settled a second after the timeline began (see noteWall).
   */
  clock: { wallAt0: number };
}

export interface CutSink {
  part(part: CutPart): void;
  /** The segment whose parts came since the last call is whole. */
  endSegment(): void;
}

export interface CutOptions {
  /** segment_duration: a segment ends at the first keyframe once it lasts this minus half a GOP. */
  segmentMs: number;
  /** EXT-X-PART-INF PART-TARGET: no part is longer (unless one frame is). */
  partTargetMs: number;
  now?: () => number;
}

/** A step of decode time backwards or longer than this starts a new timeline. */
const MAX_STEP_90K = 5 * TS_CLOCK;
/** The program date time settles this long (wall clock) after a timeline begins. */
const WALL_SETTLE_MS = 1000;
/** Parts end on whole frames: this much over the target is rounding, not a longer part. */
const ROUNDING_90K = 90;

/**
 * Cuts a live stream of video access units (each with its keyframe verdict) into LL-HLS partial
 * segments as they arrive: a part ends before the frame that would take it past the part target,
 * and a segment (with its part) ends before a keyframe once it lasts the segment target minus half
 * the last GOP, or, in a GOP too long for the target duration, before the frame that would take
 * it past EXT-X-TARGETDURATION. A part is cut when the frame after it is whole, so it is published
 * about one frame after its last frame arrived. Audio goes into the part being filled as it comes.
 */
export class PartCutter {
  private readonly segment90k: number;
  private readonly part90k: number;
  /** EXT-X-TARGETDURATION in 90 kHz ticks: no segment may last longer. */
  private readonly max90k: number;
  private readonly now: () => number;
  private gated = true;
  private discontinuityPending = false;
  private open: CutPart | undefined;
  private segmentStart90k = 0;
  private lastRaw = 0;
  private last90k = 0;
  private frame90k = 3600;
  private lastKey90k: number | undefined;
  private gop90k = 0;
  /** The wall clock of unwrapped time 0 on this timeline, fixed once its first segment is whole. */
  private clock: { wallAt0: number } | undefined;
  /** When this timeline's clock was first noted (wall, ms). */
  private wallSince = 0;

  constructor(
    private readonly sink: CutSink,
    options: CutOptions,
  ) {
    this.segment90k = (options.segmentMs * TS_CLOCK) / 1000;
    this.part90k = (Math.min(options.partTargetMs, options.segmentMs) * TS_CLOCK) / 1000;
    this.max90k = Math.ceil(options.segmentMs / 1000) * TS_CLOCK;
    this.now = options.now ?? Date.now;
  }

  /** A whole video access unit and whether a decoder can start at it. */
  video(pes: Pes, keyframe: boolean): void {
    const raw = pes.dts ?? pes.pts;
    if (raw === undefined) {
      if (this.open) this.open.video.push(pes);
      return;
    }
    if (this.gated) {
      if (keyframe) this.startTimeline(pes, raw);
      return;
    }
    const step = tsDiff(raw, this.lastRaw);
    if (step <= 0 || step > MAX_STEP_90K) {
      this.breakTimeline();
      if (keyframe) this.startTimeline(pes, raw);
      return;
    }
    const at = this.last90k + step;
    this.frame90k = step;
    this.lastRaw = raw;
    this.last90k = at;
    this.noteWall(at);
    const open = this.open!;
    const inSegment = at - this.segmentStart90k;
    const inPart = at - open.start90k;
    if (keyframe && this.lastKey90k !== undefined) this.gop90k = at - this.lastKey90k;
    if (keyframe) this.lastKey90k = at;
    let endsSegment: boolean;
    if (keyframe && inSegment >= this.segment90k - this.gop90k / 2) endsSegment = true;
    else if (inSegment + step > this.max90k + ROUNDING_90K) endsSegment = true;
    else if (inPart + step > this.part90k + ROUNDING_90K) endsSegment = false;
    else {
      open.video.push(pes);
      return;
    }
    this.close(at, endsSegment);
    // The sink may have asked to start over at a keyframe (restart) while taking the part.
    if (!this.gated) this.begin(pes, raw, at, keyframe, endsSegment);
    else if (keyframe) this.startTimeline(pes, raw);
  }

  /** A whole audio PES: it goes with the part being filled (none while waiting for a keyframe). */
  audio(pes: Pes): void {
    if (!this.gated) this.open?.audio.push(pes);
  }

  /**
   * The timeline breaks (a source switch, new tracks): the open part and segment end with their
   * last frame, and nothing goes on until a keyframe, which starts a discontinuity.
   */
  breakTimeline(): void {
    if (this.open) this.close(this.last90k + this.frame90k, true);
    this.gated = true;
    // Before any timeline (the first tables) there is nothing to break.
    this.discontinuityPending ||= this.clock !== undefined;
    this.lastKey90k = undefined;
    this.gop90k = 0;
  }

  /** Drops the open part and waits for a keyframe again, on the same timeline (no discontinuity). */
  restart(): void {
    this.open = undefined;
    this.gated = true;
  }

  private startTimeline(pes: Pes, raw: number): void {
    // The unwrapped timeline starts at the raw DTS, so it stays where the source's clock was.
    const at = raw;
    this.lastRaw = raw;
    this.last90k = at;
    this.lastKey90k = at;
    this.gated = false;
    if (this.discontinuityPending || this.clock === undefined) {
      this.clock = undefined;
    }
    this.noteWall(at);
    this.begin(pes, raw, at, true, true);
  }

  private begin(pes: Pes, raw: number, at: number, independent: boolean, segmentStart: boolean): void {
    if (segmentStart) this.segmentStart90k = at;
    this.open = {
      video: [pes],
      audio: [],
      independent,
      segmentStart,
      discontinuity: segmentStart && this.discontinuityPending,
      firstDts: raw,
      start90k: at,
      duration90k: 0,
      clock: this.clock!,
    };
    if (segmentStart) this.discontinuityPending = false;
  }

  private close(end90k: number, endsSegment: boolean): void {
    const part = this.open!;
    this.open = undefined;
    part.duration90k = end90k - part.start90k;
    this.sink.part(part);
    if (endsSegment) this.sink.endSegment();
  }

  /**
   * The wall clock against media time: the earliest mapping seen in the timeline's first second
   * of wall time, then fixed, so a segment's date stays put. A backlog handed over at once (older
   * frames taken as arriving now) is outweighed by its newest frames and the live ones after it.
   */
  private noteWall(at: number): void {
    const now = this.now();
    if (this.clock && now - this.wallSince > WALL_SETTLE_MS) return;
    const candidate = now - (at * 1000) / TS_CLOCK;
    if (!this.clock) {
      this.clock = { wallAt0: candidate };
      this.wallSince = now;
    } else if (candidate < this.clock.wallAt0) this.clock.wallAt0 = candidate;
  }
}
