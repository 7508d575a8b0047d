import { mediaPlaylist } from './hls-playlist.js';
import { PACKET_SIZE, payloadOffset, pidOf, startsUnit, TS_CLOCK, tsDiff } from './ts-packet.js';
import type { Frame, TsDemux } from './ts-demux.js';

export interface Segment {
  sequence: number;
  durationMs: number;
  discontinuity: boolean;
  data: Buffer;
}

export interface SegmenterOptions {
  /** Cut at the first keyframe once a segment is this long (segment_duration, ms). */
  targetDurationMs: number;
  /** Segments listed in the playlist (segment_count). */
  windowSize: number;
  /** Segments kept after they leave the playlist, for players that fetched it just before. */
  keepAfterWindow?: number;
}

/** A forward timestamp jump larger than this is a discontinuity (a new source, a restarted encoder). */
const JUMP_TICKS = 10 * TS_CLOCK;
/** A segment never grows past this, keyframe or not: it bounds memory for a source without keyframes. */
const MAX_SEGMENT_TICKS = 20 * TS_CLOCK;
/** …and never past this many bytes, for a source without usable timestamps. */
const MAX_SEGMENT_BYTES = 32 * 1024 * 1024;
/** Packets held while waiting for a keyframe verdict before giving up on it. */
const MAX_HELD = 4096;

interface Open {
  parts: Buffer[];
  bytes: number;
  startDts: number | undefined;
  discontinuity: boolean;
}

/**
 * Cuts the packet bus into HLS segments kept in memory. Each segment starts with the program tables
 * and a keyframe of the primary track, so it decodes alone. The keyframe verdict for an access unit
 * comes from the demuxer, sometimes a few packets after the unit began: until then the packets are
 * held, then placed on the right side of the cut.
 */
export class HlsSegmenter {
  readonly segments: Segment[] = [];
  private open: Open | undefined;
  private held: { packet: Buffer; unitStart: boolean }[] = [];
  private nextSequence = Math.floor(Date.now() / 1000);
  private lastDts: number | undefined;
  private frameTicks = 0;
  private discontinuityPending = false;
  private discontinuitySequence = 0;
  private closedCount = 0;
  private targetDurationS: number;
  private playlistText: string | undefined;
  private readonly listeners = new Set<(segment: Segment) => void>();

  constructor(
    private readonly demux: TsDemux,
    private readonly options: SegmenterOptions,
  ) {
    this.targetDurationS = Math.max(1, Math.round(options.targetDurationMs / 1000));
  }

  /** Takes an aligned chunk the demuxer has already read. */
  pushChunk(chunk: Buffer): void {
    this.drain();
    let run = 0;
    for (let o = 0; o < chunk.length; o += PACKET_SIZE) {
      const unitStart = this.isUnitStart(chunk, o);
      if (this.held.length === 0 && !unitStart) continue;
      this.append(chunk.subarray(run, o));
      run = o + PACKET_SIZE;
      const packet = chunk.subarray(o, o + PACKET_SIZE);
      const frame = this.held.length === 0 && unitStart ? this.demux.frames.shift() : undefined;
      if (frame) {
        this.onAccessUnit(frame);
        this.append(packet);
      } else {
        this.held.push({ packet, unitStart });
      }
    }
    this.append(chunk.subarray(run));
    if (this.held.length > MAX_HELD) this.releaseHeld();
  }

  /** The next segment starts a new timeline (the source changed). */
  markDiscontinuity(): void {
    this.discontinuityPending = true;
  }

  get(sequence: number): Segment | undefined {
    const first = this.segments[0]?.sequence;
    return first === undefined ? undefined : this.segments[sequence - first];
  }

  /** The media playlist; `query` is appended to segment URIs. */
  playlist(query = ''): string | undefined {
    if (this.windowSegments().length === 0) return undefined;
    if (query) return this.render(query);
    this.playlistText ??= this.render('');
    return this.playlistText;
  }

  /** What a new continuous-TS client gets first: the tables and the open segment from its keyframe. */
  liveStart(): Buffer[] {
    if (!this.open) return [];
    return [this.demux.psiPackets, ...this.open.parts, ...this.held.map((h) => h.packet)];
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

  /** Places held packets whose verdicts have arrived since. */
  private drain(): void {
    let i = 0;
    for (; i < this.held.length; i++) {
      const { packet, unitStart } = this.held[i]!;
      if (unitStart) {
        const frame = this.demux.frames.shift();
        if (!frame) break;
        this.onAccessUnit(frame);
      }
      this.append(packet);
    }
    if (i > 0) this.held = this.held.slice(i);
  }

  /** No verdict came (tables changed under us, or a broken stream): the held units are no cut points. */
  private releaseHeld(): void {
    for (const { packet } of this.held) this.append(packet);
    this.held = [];
    this.demux.frames.length = 0;
  }

  private onAccessUnit(frame: Frame): void {
    const dts = frame.dts;
    if (dts !== undefined && this.lastDts !== undefined && !this.discontinuityPending) {
      const step = tsDiff(dts, this.lastDts);
      // Decode time never runs backwards within one timeline; a jump either way is a new one.
      if (step < 0 || step > JUMP_TICKS) this.discontinuityPending = true;
      else if (step > 0) this.frameTicks = step;
    }
    const open = this.open;
    const elapsed = open?.startDts !== undefined && dts !== undefined ? tsDiff(dts, open.startDts) : 0;
    const due = elapsed >= (this.options.targetDurationMs * TS_CLOCK * 0.9) / 1000;
    if (!open) {
      if (frame.keyframe) this.startSegment(dts);
    } else if (
      (frame.keyframe && (due || this.discontinuityPending)) ||
      elapsed > MAX_SEGMENT_TICKS ||
      open.bytes > MAX_SEGMENT_BYTES
    ) {
      this.closeSegment(this.discontinuityPending ? undefined : dts);
      this.startSegment(dts);
    }
    if (dts !== undefined) this.lastDts = dts;
  }

  private startSegment(dts: number | undefined): void {
    const psi = this.demux.psiPackets;
    this.open = { parts: [psi], bytes: psi.length, startDts: dts, discontinuity: this.discontinuityPending };
    this.discontinuityPending = false;
  }

  /** `endDts`: where the next segment starts; without it (a jump) the last frame's end is used. */
  private closeSegment(endDts: number | undefined): void {
    const open = this.open!;
    this.open = undefined;
    const end = endDts ?? (this.lastDts !== undefined ? this.lastDts + this.frameTicks : undefined);
    const ticks =
      open.startDts !== undefined && end !== undefined ? Math.max(0, tsDiff(end, open.startDts)) : 0;
    const segment: Segment = {
      sequence: this.nextSequence++,
      durationMs: Math.round((ticks * 1000) / TS_CLOCK),
      discontinuity: open.discontinuity && this.closedCount > 0,
      data: Buffer.concat(open.parts),
    };
    this.closedCount++;
    this.segments.push(segment);
    this.trim();
    // EXT-X-TARGETDURATION may never shrink, and must cover every EXTINF rounded (RFC 8216 §4.3.3.1).
    this.targetDurationS = Math.max(this.targetDurationS, Math.round(segment.durationMs / 1000));
    this.playlistText = undefined;
    for (const listener of this.listeners) listener(segment);
  }

  private trim(): void {
    const keep = this.options.windowSize + (this.options.keepAfterWindow ?? 2);
    while (this.segments.length > keep) {
      if (this.segments.shift()!.discontinuity) this.discontinuitySequence++;
    }
  }

  private append(data: Buffer): void {
    if (data.length === 0 || !this.open) return;
    this.open.parts.push(data);
    this.open.bytes += data.length;
  }

  private windowSegments(): Segment[] {
    return this.segments.slice(-this.options.windowSize);
  }

  private render(query: string): string {
    const window = this.windowSegments();
    const dropped = this.segments.length - window.length;
    let discontinuitySequence = this.discontinuitySequence;
    for (let i = 0; i < dropped; i++) if (this.segments[i]!.discontinuity) discontinuitySequence++;
    return mediaPlaylist({
      segments: window,
      targetDurationS: this.targetDurationS,
      discontinuitySequence,
      query,
    });
  }
}
