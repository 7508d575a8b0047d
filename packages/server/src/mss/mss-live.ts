import type { Segment } from '../media/segment-window.js';
import { type FragmentTime, mssFragment } from './mss-boxes.js';
import { LOOK_AHEAD_FRAGMENTS, mssManifest } from './mss-manifest.js';
import { MSS_TIMESCALE, type MssSegment, mssSegment } from './mss-segment.js';
import type { MssTrackName } from './mss-url.js';

/** What the live packager reads: the segmenter's published segments (media/hls-segmenter.ts). */
export interface MssSource {
  readonly segments: readonly Segment[];
  onSegment(listener: (segment: Segment) => void): () => void;
}

/**
 * How much the manifest lists, at most. dash.js sizes its live delay and buffer from the first
 * manifest's window (never reloaded): min(4 fragments, max(window - 10 s, window / 2)) minus 1.5
 * fragments of buffer, so a window of the HLS playlist's 4-6 segments leaves it next to none.
 */
const WINDOW_MS = 30_000;
/** Fragments the first manifest waits for: 5 leaves dash.js one fragment of buffer. */
export const MIN_LISTED = 5;

export type FragmentAnswer =
  | { fragment: Buffer }
  | { status: 404; error: string }
  /** The newest fragment: asked for before the one after it is cut (its tfrf would be empty). */
  | { wait: true };

/**
 * Smooth Streaming of one stream's live segments: each TS segment becomes one fragment per track,
 * packaged once when first needed and kept while the segmenter keeps the segment. The manifest
 * lists all but the newest segment; a fragment is answered once the one after it exists, so its
 * tfrf always names a next fragment (dash.js grows its timeline only from tfrf, never reloading a
 * live manifest). Bitrates are fixed at the first manifest: the fragment URLs carry them.
 */
export class MssLive {
  /** By sequence; null: the segment can't be carried (not H.264/AAC, unreadable). */
  private readonly packaged = new Map<number, MssSegment | null>();
  private bitrates: { video?: number; audio?: number } | undefined;
  /** Fragments written, by `track:sequence`, once their tfrf is full (it can't change after). */
  private readonly written = new Map<string, Buffer>();
  /** Why the newest segment could not be carried, for the 404 a manifest request gets. */
  unsupported: string | undefined;

  /** The segments it serves: the segmenter's, kept longer (WINDOW_MS), from its creation on. */
  private readonly segments: Segment[];
  private readonly listeners = new Set<() => void>();
  private readonly stopListening: () => void;

  constructor(source: MssSource) {
    this.segments = [...source.segments];
    this.stopListening = source.onSegment((segment) => {
      this.segments.push(segment);
      let totalMs = this.segments.reduce((n, s) => n + s.durationMs, 0);
      while (this.segments.length > MIN_LISTED + 1 && totalMs - this.segments[0]!.durationMs >= WINDOW_MS)
        totalMs -= this.segments.shift()!.durationMs;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Lets go of the segmenter (the stream's MSS is no longer asked for). */
  stop(): void {
    this.stopListening();
    for (const listener of [...this.listeners]) listener();
  }

  /** The manifest, once it lists at least `minListed` fragments. */
  manifest(minListed = MIN_LISTED): string | undefined {
    const listed = this.listed();
    if (listed.length === 0 || listed.length < minListed) return undefined;
    const rates = (this.bitrates ??= {
      video: bitrateOf(listed.map((s) => s.video)),
      audio: bitrateOf(listed.map((s) => s.audio)),
    });
    const newest = listed.at(-1)!;
    const times = (track: MssTrackName) =>
      listed.flatMap((s) => (s[track] ? [{ t: s[track].t, d: s[track].d }] : []));
    return mssManifest({
      ...(newest.video && rates.video
        ? { video: { ...newest.video, bitrate: rates.video, chunks: times('video') } }
        : {}),
      ...(newest.audio && rates.audio
        ? { audio: { ...newest.audio, bitrate: rates.audio, chunks: times('audio') } }
        : {}),
    });
  }

  /** The quality level a track is offered at (undefined before the first manifest or without it). */
  bitrate(track: MssTrackName): number | undefined {
    return this.bitrates?.[track];
  }

  /** The fragment of `track` starting at `time`, with the fragments after it in its tfrf. */
  fragment(track: MssTrackName, time: number): FragmentAnswer {
    const segments = this.segments;
    for (let i = 0; i < segments.length; i++) {
      const own = this.packageOf(segments[i]!.sequence)?.[track];
      if (own?.t !== time) continue;
      const key = `${track}:${segments[i]!.sequence}`;
      const written = this.written.get(key);
      if (written) return { fragment: written };
      const next: FragmentTime[] = [];
      for (const later of segments.slice(i + 1, i + 1 + LOOK_AHEAD_FRAGMENTS)) {
        const theirs = this.packageOf(later.sequence)?.[track];
        if (theirs) next.push({ t: theirs.t, d: theirs.d });
      }
      if (next.length === 0) return { wait: true };
      const fragment = mssFragment(own, segments[i]!.sequence, next);
      if (next.length === LOOK_AHEAD_FRAGMENTS) this.written.set(key, fragment);
      return { fragment };
    }
    const first = segments.length > 0 ? this.packageOf(segments[0]!.sequence)?.[track] : undefined;
    const where = first && time < first.t ? 'no longer in the window' : 'not in the window';
    return { status: 404, error: `no ${track} fragment starts at ${time} (${where})` };
  }

  /** Resolves true once a segment after the newest one now is published, false after `timeoutMs`. */
  nextSegment(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const listener = () => done(true);
      this.listeners.add(listener);
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(value);
      };
    });
  }

  /** Packaged segments the manifest lists: all but the newest (whose successor is not cut yet). */
  private listed(): MssSegment[] {
    const out: MssSegment[] = [];
    for (const s of this.segments.slice(0, -1)) {
      const p = this.packageOf(s.sequence);
      if (p) out.push(p);
    }
    return out;
  }

  private get(sequence: number): Segment | undefined {
    const first = this.segments[0]?.sequence;
    return first === undefined ? undefined : this.segments[sequence - first];
  }

  private packageOf(sequence: number): MssSegment | undefined {
    const known = this.packaged.get(sequence);
    if (known !== undefined) return known ?? undefined;
    const segment = this.get(sequence);
    if (!segment) return undefined;
    // The previous segment's end keeps times rising past the TS clock's wrap; its parameter sets
    // decode a segment cut inside a GOP. A discontinuity starts anew.
    const previous = segment.discontinuity ? undefined : this.packageOf(sequence - 1);
    let out: MssSegment | null;
    try {
      out = mssSegment(segment.data, {
        nearDts90k: previous?.endDts90k,
        parameterSets: previous?.parameterSets,
      });
      this.unsupported = undefined;
    } catch (error) {
      out = null;
      this.unsupported = (error as Error).message;
    }
    for (const s of this.packaged.keys()) if (!this.get(s)) this.packaged.delete(s);
    for (const key of this.written.keys())
      if (!this.get(Number(key.slice(key.indexOf(':') + 1)))) this.written.delete(key);
    this.packaged.set(sequence, out);
    return out ?? undefined;
  }
}

/** Bits per second of a track over the listed fragments, rounded up to whole kbit/s. */
function bitrateOf(fragments: readonly ({ bytes: number; d: number } | undefined)[]): number | undefined {
  const present = fragments.filter((f) => f !== undefined);
  const seconds = present.reduce((n, f) => n + f.d, 0) / MSS_TIMESCALE;
  if (present.length === 0 || seconds <= 0) return undefined;
  const bps = (present.reduce((n, f) => n + f.bytes, 0) * 8) / seconds;
  return Math.max(1, Math.ceil(bps / 1000)) * 1000;
}
