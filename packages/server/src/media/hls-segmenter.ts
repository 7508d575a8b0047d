import { joined } from './joined.js';
import { PidRestart } from './pid-restart.js';
import { audioEndOf, AudioPids, dropPidFrom, LateAudio } from './segment-audio.js';
import { CutClock } from './segment-cut.js';
import { LIST_OUTAGE_GAPS, WallGap } from './segment-gap.js';
import { type Segment, SegmentWindow } from './segment-window.js';
import { PACKET_SIZE, payloadOffset, pidOf, startsUnit, TS_CLOCK, tsDiff } from './ts-packet.js';
import type { Frame, TsDemux } from './ts-demux.js';

export type { Segment } from './segment-window.js';

export interface SegmenterOptions {
  /** Cut at the keyframe nearest this (segment_duration, ms); its ceiling is EXT-X-TARGETDURATION. */
  targetDurationMs: number;
  /** Segments listed in the playlist (segment_count), more while they hold under 3 target durations. */
  windowSize: number;
  /** Segments kept after they leave the playlist, for players that fetched it just before. */
  keepAfterWindow?: number;
}

/** A segment never grows past this many bytes, for a source without usable timestamps. */
const MAX_SEGMENT_BYTES = 32 * 1024 * 1024;
/** Packets held while waiting for a keyframe verdict before giving up on it. */
const MAX_HELD = 4096;
/** A cut segment waits at most this long (of video after the cut) for its late audio. */
const LATE_AUDIO_TICKS = TS_CLOCK;

/**
 * Put in the demuxer's verdict queue at a switch when the old source's last access unit is still
 * undecided: its verdict comes behind it once the new source's first unit starts, unless new
 * tables wipe the queue first (and this with it). Either way the old verdict is told apart.
 */
const STALE: Frame = { keyframe: false, dts: undefined };

interface Open {
  parts: Buffer[];
  bytes: number;
  startDts: number | undefined;
  discontinuity: boolean;
  /** Wall-clock time with no media before it (an outage), listed as EXT-X-GAP. */
  gapMs: number;
  /** Where each access unit of the primary track starts in `parts`, to trim the video at a splice. */
  units: { part: number; dts: number }[];
}

/** A segment cut at `cutDts`, taking its late audio before it is published (segment-audio.ts). */
interface Closing {
  open: Open;
  cutDts: number;
  late: LateAudio;
}

/**
 * Cuts the packet bus into HLS segments kept in memory, and decides what the bus's subscribers get:
 * the same packets. Each segment starts with the program tables and a keyframe of the primary
 * track (or, past the longest allowed duration, at a frame of a GOP too long to fit), so it
 * decodes alone. The keyframe verdict for an access unit comes from the demuxer, sometimes a few
 * packets after the unit began: until then the packets are held, then placed on the right side.
 *
 * A source switch closes the open segment at the old source's last frame; everything of the new
 * source before its first keyframe is dropped, and the segment starting there is marked as a
 * discontinuity. The same holds at start and after a jump of the timestamps.
 */
export class HlsSegmenter {
  private readonly published: SegmentWindow;
  private open: Open | undefined;
  private closing: Closing | undefined;
  private readonly audioPids = new AudioPids();
  private held: { packet: Buffer; unitStart: boolean }[] = [];
  /** Dropping everything until a keyframe of the primary track (at start, after a switch). */
  private gated = true;
  private emittedAny = false;
  private out: Buffer[] = [];
  private readonly restart = new PidRestart();
  private readonly clock: CutClock;
  private lastDts: number | undefined;
  private discontinuityPending = false;
  private readonly wallGap = new WallGap();
  private gapPendingMs = 0;

  /** `emit` gets what passes, once per chunk: what the bus's subscribers receive. */
  constructor(
    private readonly demux: TsDemux,
    private readonly options: SegmenterOptions,
    private readonly emit: (data: Buffer) => void = () => undefined,
  ) {
    this.clock = new CutClock(options.targetDurationMs);
    const { windowSize, keepAfterWindow = 2 } = options;
    this.published = new SegmentWindow(windowSize, keepAfterWindow, this.clock.targetDurationS);
  }

  /** The published segments, oldest first. */
  get segments(): readonly Segment[] {
    return this.published.segments;
  }

  /** Takes an aligned chunk the demuxer has already read. */
  pushChunk(chunk: Buffer): void {
    if (this.demux.primaryPid === undefined && this.held.length === 0) {
      // Nothing to cut on (no tables yet, or no audio or video): subscribers get the stream as it is.
      this.emitNow(chunk);
      return;
    }
    this.drain();
    let run = 0;
    for (let o = 0; o < chunk.length; o += PACKET_SIZE) {
      const unitStart = this.isUnitStart(chunk, o);
      if (this.held.length === 0 && !unitStart) continue;
      this.pass(chunk.subarray(run, o));
      run = o + PACKET_SIZE;
      const packet = chunk.subarray(o, o + PACKET_SIZE);
      const frame = this.held.length === 0 && unitStart ? this.nextFrame() : undefined;
      if (frame) {
        this.onAccessUnit(frame);
        this.pass(packet, frame.dts);
      } else {
        this.held.push({ packet, unitStart });
      }
    }
    this.pass(chunk.subarray(run));
    if (this.held.length > MAX_HELD) this.releaseHeld();
    this.flushOut();
  }

  /**
   * The source changed: the open segment ends with the old source's last frame, and the new source
   * starts at its first keyframe, in a segment marked as a discontinuity. `planned`: the new
   * source's data is at hand (an ad break), so the wall-clock time to its keyframe is no outage:
   * an EXT-X-GAP there was a hole hls.js stalled over at each ad switch.
   */
  markDiscontinuity(planned = false): void {
    this.drain();
    // What is still held belongs to the old source's last access unit: it ends the old segment.
    const undecided = this.held.some((h) => h.unitStart);
    for (const { packet } of this.held) this.pass(packet);
    this.held = [];
    if (undecided) this.demux.frames.push(STALE);
    this.endTimeline();
    if (planned) this.wallGap.forget();
    this.flushOut();
  }

  get(sequence: number): Segment | undefined {
    return this.published.get(sequence);
  }

  get targetDurationS(): number {
    return this.clock.targetDurationS;
  }

  /** The media playlist; `query` is appended to segment URIs. */
  playlist(query = ''): string | undefined {
    return this.published.playlist(query);
  }

  /** What a new continuous-TS client gets first: the tables and the open segment from its keyframe. */
  liveStart(): Buffer[] {
    if (!this.open) return [];
    return [this.demux.psiPackets, ...this.open.parts];
  }

  /** The open segment begins a new timeline (a start, a source switch): nothing before it fits. */
  get openStartsDiscontinuity(): boolean {
    return this.open?.discontinuity === true;
  }

  /** Media the open segment holds so far (ms): a prepush counts it before the older segments. */
  get openDurationMs(): number {
    const open = this.open;
    if (!open || open.startDts === undefined || this.lastDts === undefined) return 0;
    return Math.max(0, tsDiff(this.lastDts, open.startDts) / 90);
  }

  onSegment(listener: (segment: Segment) => void): () => void {
    return this.published.onSegment(listener);
  }

  /** Bytes of media held in memory. */
  get memoryBytes(): number {
    let total = 0;
    for (const s of this.segments) total += s.data.length;
    for (const p of [...(this.open?.parts ?? []), ...(this.closing?.open.parts ?? [])]) total += p.length;
    return total;
  }

  private isUnitStart(b: Buffer, o: number): boolean {
    return startsUnit(b, o) && pidOf(b, o) === this.demux.primaryPid && payloadOffset(b, o) >= 0;
  }

  /** The next verdict of the demuxer, past a stale one left by the previous source. */
  private nextFrame(): Frame | undefined {
    const frames = this.demux.frames;
    if (frames[0] === STALE) {
      if (frames.length < 2) return undefined;
      frames.splice(0, 2);
    }
    return frames.shift();
  }

  /** Places held packets whose verdicts have arrived since. */
  private drain(): void {
    let i = 0;
    for (; i < this.held.length; i++) {
      const { packet, unitStart } = this.held[i]!;
      let dts: number | undefined;
      if (unitStart) {
        const frame = this.nextFrame();
        if (!frame) break;
        this.onAccessUnit(frame);
        dts = frame.dts;
      }
      this.pass(packet, dts);
    }
    if (i > 0) this.held = this.held.slice(i);
  }

  /** No verdict came (tables changed under us, or a broken stream): the held units are no cut points. */
  private releaseHeld(): void {
    for (const { packet } of this.held) this.pass(packet);
    this.held = [];
    this.demux.frames.length = 0;
  }

  private onAccessUnit(frame: Frame): void {
    const dts = frame.dts;
    if (this.gated) {
      if (frame.keyframe) this.startTimeline(frame);
      return;
    }
    const open = this.open!;
    if (dts !== undefined && this.lastDts !== undefined) {
      const step = tsDiff(dts, this.lastDts);
      // Decode time never runs backwards within one timeline, nor leaves a hole longer than a
      // segment may last: either is a new timeline, started at a keyframe like a new source.
      if (step < 0 || step > this.clock.maxTicks) {
        this.endTimeline();
        if (frame.keyframe) this.startTimeline(frame);
        return;
      }
      this.clock.step(step);
    }
    if (frame.keyframe) this.clock.keyframe(dts);
    const elapsed = open.startDts !== undefined && dts !== undefined ? tsDiff(dts, open.startDts) : 0;
    const closing = this.closing;
    if (closing && dts !== undefined && tsDiff(dts, closing.cutDts) >= LATE_AUDIO_TICKS)
      this.publishClosing();
    if (elapsed > this.clock.maxTicks) {
      // A hole in the timestamps left no room: the segment ends with its last frame.
      this.open = undefined;
      this.publish(open, this.lastFrameEnd());
      this.startSegment(frame);
    } else if (this.clock.cutBefore(frame.keyframe, elapsed) || open.bytes > MAX_SEGMENT_BYTES) {
      this.cut(dts);
      this.startSegment(frame);
    }
    if (dts !== undefined) this.noteDts(dts);
  }

  private noteDts(dts: number | undefined): void {
    this.lastDts = dts;
    this.wallGap.frame(dts);
  }

  /**
   * Ends the timeline: the segment the old source was filling ends where both its video and its
   * audio do (the audio that would have come after never will), then everything is dropped until a
   * keyframe. A segment just cut and still waiting for its late audio ends the same way, and what
   * came after its cut (under a second, with no audio of its own yet) goes with the old source.
   */
  private endTimeline(): void {
    const closing = this.closing;
    this.closing = undefined;
    const open = closing?.open ?? this.open;
    this.open = undefined;
    const endDts = open && (this.trimToAudio(open) ?? closing?.cutDts ?? this.lastFrameEnd());
    if (open) this.publish(open, endDts);
    this.wallGap.ended(endDts);
    this.gated = true;
    this.discontinuityPending = true;
    this.lastDts = undefined;
    this.clock.reset(this.emittedAny);
  }

  private lastFrameEnd(): number | undefined {
    return this.lastDts !== undefined ? this.lastDts + this.clock.frameTicks : undefined;
  }

  /** Audio PIDs of the segment's program, other than the one it is cut on. */
  private audioOf(open: Open): ReadonlySet<number> {
    const pids = this.audioPids.of(open.parts[0] ?? Buffer.alloc(0));
    if (!pids.has(this.demux.primaryPid!)) return pids;
    const others = new Set(pids);
    others.delete(this.demux.primaryPid!);
    return others;
  }

  /** Drops the video past the end of the segment's audio; returns where the segment now ends. */
  private trimToAudio(open: Open): number | undefined {
    const audio = this.audioOf(open);
    if (audio.size === 0 || open.startDts === undefined) return undefined;
    // No audio at all (a tail just past a cut): nothing of it plays with sound.
    const audioEnd = audioEndOf(open.parts, audio) ?? open.startDts;
    const first = open.units.find((u) => tsDiff(u.dts, audioEnd) >= 0);
    if (!first) return undefined;
    dropPidFrom(open.parts, first.part, this.demux.primaryPid!);
    return first.dts;
  }

  /** The first keyframe after a gap: the gate opens, each PID starts over. */
  private startTimeline(frame: Frame): void {
    // The outage stays in the timeline (segment-gap.ts) when gaps are listed.
    const outageMs = this.wallGap.started();
    if (LIST_OUTAGE_GAPS) this.gapPendingMs += outageMs;
    this.clock.keyframe(frame.dts);
    this.startSegment(frame);
    this.gated = false;
    this.restart.begin(this.emittedAny);
  }

  /** A segment starting with `frame`: the tables, the parameter sets it came without, then it. */
  private startSegment(frame: Frame): void {
    const parts = [this.demux.psiPackets];
    if (frame.parameterSets) parts.push(frame.parameterSets);
    const bytes = parts.reduce((n, p) => n + p.length, 0);
    const { discontinuityPending: discontinuity, gapPendingMs: gapMs } = this;
    this.open = { parts, bytes, startDts: frame.dts, discontinuity, gapMs, units: [] };
    this.discontinuityPending = false;
    this.gapPendingMs = 0;
    this.noteDts(frame.dts);
  }

  /** A cut at `dts`: the open segment ends there and, with audio, first takes its late audio. */
  private cut(dts: number | undefined): void {
    if (this.closing) this.publishClosing();
    const open = this.open!;
    this.open = undefined;
    const audio = this.audioOf(open);
    if (dts !== undefined && audio.size > 0)
      this.closing = { open, cutDts: dts, late: new LateAudio(audio, dts) };
    else this.publish(open, dts);
  }

  private publishClosing(): void {
    const closing = this.closing!;
    this.closing = undefined;
    this.publish(closing.open, closing.cutDts);
  }

  /** Lists the segment, ending at `endDts`. */
  private publish(open: Open, endDts: number | undefined): void {
    const ticks = open.startDts !== undefined && endDts !== undefined ? tsDiff(endDts, open.startDts) : 0;
    const durationMs = Math.round((ticks * 1000) / TS_CLOCK);
    // A segment of no length (one frame whose length is not known yet) is no segment for a player:
    // its packets went to subscribers, the playlist skips it, and its discontinuity moves on.
    if (durationMs <= 0) {
      this.discontinuityPending ||= open.discontinuity;
      this.gapPendingMs += open.gapMs;
      return;
    }
    this.published.add(durationMs, open.discontinuity, Buffer.concat(open.parts), open.gapMs);
  }

  /**
   * Packets that pass: to subscribers, and into the open segment (the late audio of a segment just
   * cut into that one); dropped while gated. `unitDts`: they start an access unit of the primary track.
   */
  private pass(data: Buffer, unitDts?: number): void {
    if (data.length === 0 || this.gated) return;
    let mark = unitDts;
    const toOpen = (part: Buffer) => {
      const open = this.open!;
      if (mark !== undefined) open.units.push({ part: open.parts.length, dts: mark });
      mark = undefined;
      open.parts.push(part);
      open.bytes += part.length;
    };
    this.restart.filter(data, (part) => {
      if (part.length === 0) return;
      this.out.push(part);
      const closing = this.closing;
      if (closing) closing.late.split(part, (p) => closing.open.parts.push(p), toOpen);
      else toOpen(part);
    });
    if (this.closing?.late.done) this.publishClosing();
  }

  private emitNow(data: Buffer): void {
    if (data.length === 0) return;
    this.emittedAny = true;
    this.emit(data);
  }

  private flushOut(): void {
    const out = this.out;
    if (out.length === 0) return;
    this.out = [];
    this.emitNow(out.length === 1 ? out[0]! : joined(out));
  }
}
