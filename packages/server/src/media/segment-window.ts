import { mediaPlaylist } from './hls-playlist.js';

export interface Segment {
  sequence: number;
  durationMs: number;
  discontinuity: boolean;
  data: Buffer;
  /** The outage before it, listed as EXT-X-GAP segments numbered just below it (hls-playlist.ts). */
  gapsBeforeMs?: number[];
}

/** RFC 8216 §6.2.2: the playlist lasts at least this many target durations. */
const WINDOW_TARGETS = 3;

/**
 * Media sequence numbers start from the clock in milliseconds, and above any number this process
 * gave out: a restarted stream (a new segmenter) always continues above what was served, also at
 * several segments a second, so a segment URI never names other content (RFC 8216 §6.2.1).
 */
let highestSequence = 0;
const firstSequence = () => Math.max(Date.now(), highestSequence + 1);

/**
 * The segments a stream has published, kept in memory: numbered, listed in the media playlist
 * (segment_count of them, more while they hold under three target durations), and kept a little
 * after they leave it for players that fetched the playlist just before.
 */
export class SegmentWindow {
  readonly segments: Segment[] = [];
  private nextSequence = firstSequence();
  private discontinuitySequence = 0;
  private playlistText: string | undefined;
  private readonly listeners = new Set<(segment: Segment) => void>();

  constructor(
    private readonly windowSize: number,
    private readonly keepAfterWindow: number,
    private readonly targetDurationS: number,
  ) {}

  /** `gapMs`: wall-clock time with no media before this segment (an outage), kept as EXT-X-GAP. */
  add(durationMs: number, discontinuity: boolean, data: Buffer, gapMs = 0): void {
    // The first segment a playlist ever lists follows nothing.
    const gapsBeforeMs = this.segments.length > 0 ? splitGap(gapMs, this.targetDurationS * 1000) : [];
    this.nextSequence += gapsBeforeMs.length;
    const segment: Segment = {
      sequence: this.nextSequence++,
      durationMs,
      discontinuity: discontinuity && this.segments.length > 0,
      data,
    };
    if (gapsBeforeMs.length > 0) segment.gapsBeforeMs = gapsBeforeMs;
    highestSequence = Math.max(highestSequence, segment.sequence);
    this.segments.push(segment);
    this.trim();
    this.playlistText = undefined;
    for (const listener of this.listeners) listener(segment);
  }

  get(sequence: number): Segment | undefined {
    const first = this.segments[0]?.sequence;
    if (first === undefined) return undefined;
    const guess = this.segments[sequence - first];
    // Gap segments take numbers and have no media: past one, the index is no longer the offset.
    return guess?.sequence === sequence ? guess : this.segments.find((s) => s.sequence === sequence);
  }

  /** The media playlist; `query` is appended to segment URIs. */
  playlist(query = ''): string | undefined {
    if (this.segments.length === 0) return undefined;
    if (query) return this.render(query);
    this.playlistText ??= this.render('');
    return this.playlistText;
  }

  onSegment(listener: (segment: Segment) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private windowLength(): number {
    const minimumMs = WINDOW_TARGETS * this.targetDurationS * 1000;
    let count = 0;
    let totalMs = 0;
    for (let i = this.segments.length - 1; i >= 0 && totalMs < minimumMs; i--) {
      totalMs += this.segments[i]!.durationMs;
      count++;
    }
    return Math.max(this.windowSize, count);
  }

  private trim(): void {
    const keep = this.windowLength() + this.keepAfterWindow;
    while (this.segments.length > keep) {
      if (this.segments.shift()!.discontinuity) this.discontinuitySequence++;
    }
  }

  private render(query: string): string {
    const window = this.segments.slice(-this.windowLength());
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

/** A hole as EXT-X-GAP segments of equal length, none longer than the target duration. */
function splitGap(gapMs: number, targetMs: number): number[] {
  if (gapMs <= 0) return [];
  const count = Math.ceil(gapMs / targetMs);
  return Array.from({ length: count }, () => Math.round(gapMs / count));
}
