import { VideoProbe } from '../video-probe.js';
import type { Pes } from '../fmp4/ts-elementary.js';
import { type LlPart, type LlSegment, llMediaPlaylist } from './ll-playlist.js';
import { type CutPart, PartCutter } from './part-cutter.js';
import { PartRemuxer } from './part-fmp4.js';
import { type LlVideoCodec, PesReader } from './pes-reader.js';

export interface LlPackagerOptions {
  segmentMs: number;
  /** Whole segments listed (segment_count). */
  windowSize: number;
  partTargetMs?: number;
  now?: () => number;
}

/** Part target (EXT-X-PART-INF): Apple's examples use 1 s or less; a third of a second to half. */
export const PART_TARGET_MS = 500;
/** Whole segments whose parts are still listed: the parts of the last ~3 target durations. */
const SEGMENTS_WITH_PARTS = 2;
/** Parts held while waiting for the first audio frames: ~5 s; older ones are dropped. */
const MAX_PENDING = 10;
/** Segments kept past the playlist window, for players that read the playlist just before. */
const KEEP_AFTER_WINDOW = 2;

/** Where a blocking request (`_HLS_msn`, `_HLS_part`) stands against what is published. */
export interface LlPosition {
  /** The newest segment's media sequence number (the open one's, if any). */
  msn: number;
  /** Parts of that segment published so far; whole when `complete`. */
  parts: number;
  complete: boolean;
}

/**
 * Low-Latency HLS of one stream: reads the packets its bus lets through (pes-reader), cuts them
 * into parts as they come (part-cutter), remuxes each part once (part-fmp4) and keeps the
 * segments of the playlist window and a few after it, parts included, in memory. Listeners hear of
 * every new part and every segment made whole (the blocking requests wait on them).
 */
export class LlPackager {
  readonly targetDurationS: number;
  readonly partTargetS: number;
  private readonly cutter: PartCutter;
  private readonly reader: PesReader;
  private readonly options: LlPackagerOptions;
  private remuxer: PartRemuxer | undefined;
  private probe: VideoProbe | undefined;
  private verdictCount = 0;
  private lastVerdict = false;
  private units = 0;
  private codec: LlVideoCodec | undefined;
  private readonly segments: LlSegment[] = [];
  private readonly inits = new Map<string, Buffer>();
  private nextMsn: number;
  private nextPartNumber: number;
  private discontinuitySequence = 0;
  private readonly listeners = new Set<() => void>();
  /** Parts cut before the audio track was known (and where their segments ended). */
  private pending: (CutPart | 'end')[] = [];
  /** Playlists rendered since the last change, by query (a token). */
  private readonly rendered = new Map<string, string>();
  /** Codecs and picture size of the newest part, for the master playlist. */
  current: { codecs: string[]; resolution?: { width: number; height: number } } | undefined;
  /** Why nothing is published (no H.264/HEVC video), for a 404's reason. */
  unsupported: string | undefined;

  constructor(options: LlPackagerOptions) {
    this.options = options;
    const partTargetMs = Math.min(options.partTargetMs ?? PART_TARGET_MS, options.segmentMs);
    this.targetDurationS = Math.ceil(options.segmentMs / 1000);
    this.partTargetS = partTargetMs / 1000;
    // Numbers from the clock, as the TS segmenter's: a restarted stream names no URI twice.
    this.nextMsn = (options.now ?? Date.now)();
    this.nextPartNumber = this.nextMsn;
    this.cutter = new PartCutter(
      { part: (part) => this.onPart(part), endSegment: () => this.onSegmentEnd() },
      { segmentMs: options.segmentMs, partTargetMs, now: options.now },
    );
    this.reader = new PesReader({
      tracks: (video, audio) => this.onTracks(video, audio),
      video: (pes) => this.onVideo(pes),
      audio: (pes) => {
        this.remuxer?.learnAudio(pes);
        this.cutter.audio(pes);
      },
      discontinuity: () => this.cutter.breakTimeline(),
    });
  }

  /** Aligned MPEG-TS packets, as the bus hands them to subscribers. */
  push(chunk: Buffer): void {
    this.reader.push(chunk);
  }

  onUpdate(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get position(): LlPosition | undefined {
    const last = this.segments[this.segments.length - 1];
    return last && { msn: last.msn, parts: last.parts.length, complete: last.complete };
  }

  /** A whole segment is listed: what a player that does not read parts (ffmpeg's) starts from. */
  get hasWholeSegment(): boolean {
    return this.segments.some((s) => s.complete);
  }

  /** The media playlist; `skip`: its delta update (_HLS_skip). */
  playlist(query = '', skip = false): string | undefined {
    if (this.segments.length === 0) return undefined;
    // Every held request is answered at once when a part is cut: they share one rendering.
    const key = skip ? `skip:${query}` : query;
    const rendered = this.rendered.get(key);
    if (rendered !== undefined) return rendered;
    if (this.rendered.size > 64) this.rendered.clear();
    const text = this.render(query, skip);
    this.rendered.set(key, text);
    return text;
  }

  private render(query: string, skip: boolean): string {
    const complete = this.segments.filter((s) => s.complete);
    const open = this.segments.filter((s) => !s.complete);
    const listed = [...complete.slice(-this.options.windowSize), ...open];
    const withParts = complete[Math.max(0, complete.length - SEGMENTS_WITH_PARTS)]?.msn ?? this.nextMsn;
    const dropped = this.segments.slice(0, this.segments.indexOf(listed[0]!));
    return llMediaPlaylist({
      targetDurationS: this.targetDurationS,
      partTargetS: this.partTargetS,
      segments: listed,
      partsFromMsn: withParts,
      discontinuitySequence: this.discontinuitySequence + dropped.filter((s) => s.discontinuity).length,
      nextPart: this.nextPartNumber,
      query,
      skip,
    });
  }

  part(number: number): Buffer | undefined {
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const parts = this.segments[i]!.parts;
      if (parts.length > 0 && parts[0]!.number <= number)
        return parts.find((p) => p.number === number)?.fragment;
    }
    return undefined;
  }

  /** The part after the newest: what EXT-X-PRELOAD-HINT names. */
  get nextPart(): number {
    return this.nextPartNumber;
  }

  /** A whole segment: its parts back to back (the styp of the first only). */
  segment(msn: number): Buffer | undefined {
    const segment = this.segments.find((s) => s.msn === msn && s.complete);
    if (!segment) return undefined;
    return Buffer.concat(segment.parts.map((p, i) => (i === 0 ? p.fragment : withoutStyp(p.fragment))));
  }

  init(initId: string): Buffer | undefined {
    return this.inits.get(initId);
  }

  /** Bytes of media held. */
  get memoryBytes(): number {
    return this.segments.reduce((n, s) => n + s.parts.reduce((m, p) => m + p.fragment.length, 0), 0);
  }

  private onTracks(video: LlVideoCodec | undefined, audio: boolean): void {
    this.cutter.breakTimeline();
    this.pending = [];
    this.codec = video;
    this.unsupported = video ? undefined : 'no H.264 or HEVC video in the stream';
    this.remuxer = video ? new PartRemuxer(video, audio) : undefined;
    this.verdictCount = 0;
    this.units = 0;
    this.probe = video
      ? new VideoProbe(video, (unit) => {
          this.verdictCount++;
          this.lastVerdict = unit.keyframe;
        })
      : undefined;
  }

  private onVideo(pes: Pes): void {
    if (!this.probe) return;
    // The access unit is whole: its verdict comes now. Verdicts come one per unit, in order; one
    // still undecided (no picture seen) is no keyframe, and its late verdict is only counted.
    const index = this.units++;
    this.probe.begin(pes.data, pes.randomAccess);
    this.cutter.video(pes, this.verdictCount === index + 1 && this.lastVerdict);
  }

  private onPart(cut: CutPart): void {
    this.rendered.clear();
    const remuxer = this.remuxer;
    if (!remuxer) return;
    // Audio comes up to ~0.7 s behind its video (muxers interleave late): parts wait until its first
    // frames tell the audio track's sample entry, so that every part names the same init.
    if (!remuxer.ready) {
      this.pending.push(cut);
      if (this.pending.length > MAX_PENDING) this.pending.shift();
      return;
    }
    const waiting = this.pending;
    this.pending = [];
    for (const earlier of waiting)
      if (earlier === 'end') this.onSegmentEnd();
      else this.publish(remuxer, earlier);
    // Unreadable (no parameter sets yet): start over at the next keyframe.
    if (!this.publish(remuxer, cut)) this.cutter.restart();
  }

  /** Remuxes and lists one part; false when it can't be read. */
  private publish(remuxer: PartRemuxer, cut: CutPart): boolean {
    let out;
    try {
      out = remuxer.remux(cut);
    } catch {
      out = undefined;
    }
    if (!out) return false;
    let segment = this.segments[this.segments.length - 1];
    if (!segment || segment.complete || cut.segmentStart) {
      if (segment && !segment.complete) segment.complete = true;
      if (!cut.segmentStart && !cut.independent) return true; // a segment must start where it can be cut
      segment = {
        msn: this.nextMsn++,
        parts: [],
        complete: false,
        initId: out.initId,
        discontinuity: cut.discontinuity,
        start90k: cut.start90k,
        clock: cut.clock,
      };
      this.segments.push(segment);
      this.prune();
    }
    // A change of codec parameters inside a segment waits for the next segment's init.
    if (out.initId !== segment.initId) return true;
    this.inits.set(out.initId, out.init);
    const part: LlPart = {
      number: this.nextPartNumber++,
      duration90k: cut.duration90k,
      independent: cut.independent,
      fragment: out.fragment,
    };
    segment.parts.push(part);
    this.current = { codecs: out.codecs, ...(out.resolution ? { resolution: out.resolution } : {}) };
    this.notify();
    return true;
  }

  private onSegmentEnd(): void {
    if (this.pending.length > 0) {
      this.pending.push('end');
      return;
    }
    const segment = this.segments[this.segments.length - 1];
    if (!segment || segment.complete) return;
    segment.complete = true;
    this.notify();
  }

  private prune(): void {
    const keep = this.options.windowSize + KEEP_AFTER_WINDOW + 1;
    while (this.segments.length > keep) {
      const gone = this.segments.shift()!;
      if (gone.discontinuity) this.discontinuitySequence++;
    }
    const used = new Set(this.segments.map((s) => s.initId));
    for (const id of this.inits.keys()) if (!used.has(id)) this.inits.delete(id);
  }

  private notify(): void {
    this.rendered.clear();
    for (const listener of this.listeners) listener();
  }
}

/** A fragment without its leading styp box (segment type: once per segment is enough). */
function withoutStyp(fragment: Buffer): Buffer {
  if (fragment.length >= 8 && fragment.toString('latin1', 4, 8) === 'styp')
    return fragment.subarray(fragment.readUInt32BE(0));
  return fragment;
}
