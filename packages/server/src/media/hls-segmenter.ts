import { mediaPlaylist } from './hls-playlist.js';
import { PidRestart } from './pid-restart.js';
import { CutClock } from './segment-cut.js';
import { PACKET_SIZE, payloadOffset, pidOf, startsUnit, TS_CLOCK, tsDiff } from './ts-packet.js';
import type { Frame, TsDemux } from './ts-demux.js';

export interface Segment {
  sequence: number;
  durationMs: number;
  discontinuity: boolean;
  data: Buffer;
}

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
/** RFC 8216 §6.2.2: the playlist lasts at least this many target durations. */
const WINDOW_TARGETS = 3;

/**
 * Put in the demuxer's verdict queue at a switch when the old source's last access unit is still
 * undecided: its verdict comes behind it once the new source's first unit starts, unless new
 * tables wipe the queue first (and this with it). Either way the old verdict is told apart.
 */
const STALE: Frame = { keyframe: false, dts: undefined };

/**
 * Media sequence numbers start from the clock in milliseconds, and above any number this process
 * gave out: a restarted stream (a new segmenter) always continues above what was served, also at
 * several segments a second, so a segment URI never names other content (RFC 8216 §6.2.1).
 */
let highestSequence = 0;
const firstSequence = () => Math.max(Date.now(), highestSequence + 1);

interface Open {
  parts: Buffer[];
  bytes: number;
  startDts: number | undefined;
  discontinuity: boolean;
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
  readonly segments: Segment[] = [];
  private open: Open | undefined;
  private held: { packet: Buffer; unitStart: boolean }[] = [];
  /** Dropping everything until a keyframe of the primary track (at start, after a switch). */
  private gated = true;
  private emittedAny = false;
  private out: Buffer[] = [];
  private readonly restart = new PidRestart();
  private readonly clock: CutClock;
  private nextSequence = firstSequence();
  private lastDts: number | undefined;
  private discontinuityPending = false;
  private discontinuitySequence = 0;
  private closedCount = 0;
  private playlistText: string | undefined;
  private readonly listeners = new Set<(segment: Segment) => void>();

  /** `emit` gets what passes, once per chunk: what the bus's subscribers receive. */
  constructor(
    private readonly demux: TsDemux,
    private readonly options: SegmenterOptions,
    private readonly emit: (data: Buffer) => void = () => undefined,
  ) {
    this.clock = new CutClock(options.targetDurationMs);
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
        this.pass(packet);
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
   * starts at its first keyframe, in a segment marked as a discontinuity.
   */
  markDiscontinuity(): void {
    this.drain();
    // What is still held belongs to the old source's last access unit: it ends the old segment.
    const undecided = this.held.some((h) => h.unitStart);
    for (const { packet } of this.held) this.pass(packet);
    this.held = [];
    if (undecided) this.demux.frames.push(STALE);
    this.endTimeline();
    this.flushOut();
  }

  get(sequence: number): Segment | undefined {
    const first = this.segments[0]?.sequence;
    return first === undefined ? undefined : this.segments[sequence - first];
  }

  get targetDurationS(): number {
    return this.clock.targetDurationS;
  }

  /** The media playlist; `query` is appended to segment URIs. */
  playlist(query = ''): string | undefined {
    if (this.segments.length === 0) return undefined;
    if (query) return this.render(query);
    this.playlistText ??= this.render('');
    return this.playlistText;
  }

  /** What a new continuous-TS client gets first: the tables and the open segment from its keyframe. */
  liveStart(): Buffer[] {
    if (!this.open) return [];
    return [this.demux.psiPackets, ...this.open.parts];
  }

  onSegment(listener: (segment: Segment) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Bytes of media held in memory. */
  get memoryBytes(): number {
    let total = 0;
    for (const s of this.segments) total += s.data.length;
    for (const p of this.open?.parts ?? []) total += p.length;
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
      if (unitStart) {
        const frame = this.nextFrame();
        if (!frame) break;
        this.onAccessUnit(frame);
      }
      this.pass(packet);
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
    if (elapsed > this.clock.maxTicks) {
      // A hole in the timestamps left no room: the segment ends with its last frame.
      this.closeSegment(undefined);
      this.startSegment(frame);
    } else if (this.clock.cutBefore(frame.keyframe, elapsed) || open.bytes > MAX_SEGMENT_BYTES) {
      this.closeSegment(dts);
      this.startSegment(frame);
    }
    if (dts !== undefined) this.lastDts = dts;
  }

  /** Closes the open segment at the last frame's end and drops what follows until a keyframe. */
  private endTimeline(): void {
    if (this.open) this.closeSegment(undefined);
    this.gated = true;
    this.discontinuityPending = true;
    this.lastDts = undefined;
    this.clock.reset();
  }

  /** The first keyframe after a gap: the gate opens, each PID starts over. */
  private startTimeline(frame: Frame): void {
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
    this.open = { parts, bytes, startDts: frame.dts, discontinuity: this.discontinuityPending };
    this.discontinuityPending = false;
    this.lastDts = frame.dts;
  }

  /** `endDts`: where the next segment starts; without it, where the last frame ends. */
  private closeSegment(endDts: number | undefined): void {
    const open = this.open!;
    this.open = undefined;
    const end = endDts ?? (this.lastDts !== undefined ? this.lastDts + this.clock.frameTicks : undefined);
    const ticks = open.startDts !== undefined && end !== undefined ? tsDiff(end, open.startDts) : 0;
    const durationMs = Math.round((ticks * 1000) / TS_CLOCK);
    // A segment of no length (one frame whose length is not known yet) is no segment for a player:
    // its packets went to subscribers, the playlist skips it, and its discontinuity moves on.
    if (durationMs <= 0) {
      this.discontinuityPending ||= open.discontinuity;
      return;
    }
    const segment: Segment = {
      sequence: this.nextSequence++,
      durationMs,
      discontinuity: open.discontinuity && this.closedCount > 0,
      data: Buffer.concat(open.parts),
    };
    highestSequence = Math.max(highestSequence, segment.sequence);
    this.closedCount++;
    this.segments.push(segment);
    this.trim();
    this.playlistText = undefined;
    for (const listener of this.listeners) listener(segment);
  }

  /** Segments the playlist lists: segment_count, and more while they hold under 3 target durations. */
  private windowLength(): number {
    const minimumMs = WINDOW_TARGETS * this.clock.targetDurationS * 1000;
    let count = 0;
    let totalMs = 0;
    for (let i = this.segments.length - 1; i >= 0 && totalMs < minimumMs; i--) {
      totalMs += this.segments[i]!.durationMs;
      count++;
    }
    return Math.max(this.options.windowSize, count);
  }

  private trim(): void {
    const keep = this.windowLength() + (this.options.keepAfterWindow ?? 2);
    while (this.segments.length > keep) {
      if (this.segments.shift()!.discontinuity) this.discontinuitySequence++;
    }
  }

  /** Packets that pass: into the open segment and to subscribers; dropped while gated. */
  private pass(data: Buffer): void {
    if (data.length === 0 || this.gated) return;
    this.restart.filter(data, (part) => {
      if (part.length === 0) return;
      this.open!.parts.push(part);
      this.open!.bytes += part.length;
      this.out.push(part);
    });
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
    this.emitNow(out.length === 1 ? out[0]! : Buffer.concat(out));
  }

  private render(query: string): string {
    const window = this.segments.slice(-this.windowLength());
    const dropped = this.segments.length - window.length;
    let discontinuitySequence = this.discontinuitySequence;
    for (let i = 0; i < dropped; i++) if (this.segments[i]!.discontinuity) discontinuitySequence++;
    return mediaPlaylist({
      segments: window,
      targetDurationS: this.clock.targetDurationS,
      discontinuitySequence,
      query,
    });
  }
}
