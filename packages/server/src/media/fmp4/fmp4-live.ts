import type { Segment } from '../segment-window.js';
import { fmp4MediaPlaylist } from './fmp4-playlist.js';
import { type Fmp4Segment, tsToFmp4, videoParameterSets } from './ts-to-fmp4.js';

/** What the live packager reads: the segmenter's published window (media/segment-window.ts). */
export interface LiveSegments {
  get(sequence: number): Segment | undefined;
  playlist(query?: string): string | undefined;
}

type Packaged = Pick<
  Fmp4Segment,
  'initId' | 'fragment' | 'codecs' | 'resolution' | 'endDts90k' | 'parameterSets'
>;

/**
 * Live fMP4 HLS of one stream, beside its TS HLS: each published segment remuxed once, when a
 * player first needs it, and kept while the segmenter keeps the segment, so any number of players
 * cost one remux per segment. Inits are kept while a kept fragment uses them.
 */
export class LiveFmp4 {
  /** By media sequence; null: the segment can't be packaged (codecs other than H.264/HEVC and AAC). */
  private readonly packaged = new Map<number, Packaged | null>();
  private readonly inits = new Map<string, Buffer>();
  private latest: Packaged | undefined;
  private latestSequence = 0;

  constructor(private readonly source: LiveSegments) {}

  /** The media playlist; undefined before a first segment or when a listed one can't be packaged. */
  playlist(query = ''): string | undefined {
    const ts = this.source.playlist(query);
    return ts ? fmp4MediaPlaylist(ts, (sequence) => this.packageOf(sequence)?.initId, query) : undefined;
  }

  fragment(sequence: number): Buffer | undefined {
    return this.packageOf(sequence)?.fragment;
  }

  init(initId: string): Buffer | undefined {
    return this.inits.get(initId);
  }

  /** Codecs and picture size of the newest packaged segment, for the master playlist. */
  get current(): Pick<Packaged, 'codecs' | 'resolution'> | undefined {
    return this.latest;
  }

  private packageOf(sequence: number): Packaged | undefined {
    const known = this.packaged.get(sequence);
    if (known !== undefined) return known ?? undefined;
    const segment = this.source.get(sequence);
    if (!segment) return undefined;
    // The previous fragment's end keeps decode times rising past the TS clock's 33-bit wrap; a
    // discontinuity starts a new timeline, taken as it comes.
    const previous = segment.discontinuity ? undefined : this.packageOf(sequence - 1);
    let out: Fmp4Segment;
    try {
      out = tsToFmp4(segment.data, {
        sequence,
        nearDts90k: previous?.endDts90k,
        // A segment cut inside a long GOP decodes with the parameter sets of the one before.
        parameterSets: previous?.parameterSets ?? this.setsAfter(sequence),
      });
    } catch {
      this.packaged.set(sequence, null);
      return undefined;
    }
    const packaged: Packaged = {
      initId: out.initId,
      fragment: out.fragment,
      codecs: out.codecs,
      resolution: out.resolution,
      endDts90k: out.endDts90k,
      parameterSets: out.parameterSets,
    };
    this.prune();
    this.inits.set(out.initId, out.init);
    this.packaged.set(sequence, packaged);
    if (!this.latest || sequence >= this.latestSequence) {
      this.latest = packaged;
      this.latestSequence = sequence;
    }
    return packaged;
  }

  /**
   * For the oldest kept segment, cut inside a GOP, whose predecessor is gone: the parameter sets of
   * the segments after it up to a discontinuity (the same encoder, so the same sets).
   */
  private setsAfter(sequence: number): Buffer[] | undefined {
    for (let next = sequence + 1; ; next++) {
      const segment = this.source.get(next);
      if (!segment || segment.discontinuity) return undefined;
      const sets = videoParameterSets(segment.data);
      if (sets.length > 0) return sets;
    }
  }

  /** Forgets fragments of segments the segmenter no longer keeps, and inits none of the rest use. */
  private prune(): void {
    for (const sequence of this.packaged.keys())
      if (!this.source.get(sequence)) this.packaged.delete(sequence);
    const used = new Set([...this.packaged.values()].map((p) => p?.initId));
    for (const id of this.inits.keys()) if (!used.has(id)) this.inits.delete(id);
  }
}
