import { crc32Mpeg } from '../crc32.js';
import { aacTrack } from '../fmp4/aac-track.js';
import { initSegment } from '../fmp4/init-segment.js';
import { mediaFragment } from '../fmp4/media-fragment.js';
import type { Fmp4Track } from '../fmp4/track.js';
import { videoTrack } from '../fmp4/video-track.js';
import { tsDiff } from '../ts-packet.js';
import type { Pes } from '../fmp4/ts-elementary.js';
import type { CutPart } from './part-cutter.js';
import type { LlVideoCodec } from './pes-reader.js';

export interface PartFmp4 {
  fragment: Buffer;
  init: Buffer;
  initId: string;
  codecs: string[];
  resolution?: { width: number; height: number };
}

/**
 * Remuxes the parts of one stream to CMAF fragments (ISO 23000-19 chunks), keeping what a part
 * alone does not carry: the parameter sets (a part inside a GOP has none) and the audio track's
 * sample entry (a part may hold no audio frame), so every part of a segment names one init.
 */
export class PartRemuxer {
  private sets: Buffer[] = [];
  private audioTemplate: Fmp4Track | undefined;
  private sequence = 1;

  constructor(
    private readonly codec: LlVideoCodec,
    private readonly withAudio: boolean,
  ) {}

  /** Whether parts can be published: with audio in the program, once its first frames were read. */
  get ready(): boolean {
    return !this.withAudio || this.audioTemplate !== undefined;
  }

  /** Reads the audio track's sample entry from the first AAC frames, before any part holds them. */
  learnAudio(pes: Pes): void {
    if (!this.withAudio || this.audioTemplate) return;
    const audio = aacTrack([pes], 2, (ts) => ts);
    if (audio) this.audioTemplate = { ...audio, samples: [] };
  }

  /** Undefined when the part has no readable video (no parameter sets yet, no timed frame). */
  remux(part: CutPart): PartFmp4 | undefined {
    const start90k = (ts: number) => part.start90k + tsDiff(ts, part.firstDts);
    const video = videoTrack(this.codec, part.video, 1, start90k, this.sets);
    if (!video) return undefined;
    this.sets = video.parameterSets;
    // The last frame lasts until the next part's first: known here, where a whole segment guesses.
    const samples = video.track.samples;
    const before = samples.slice(0, -1).reduce((n, s) => n + s.duration, 0);
    if (part.duration90k > before) samples[samples.length - 1]!.duration = part.duration90k - before;
    const audio = this.withAudio ? aacTrack(part.audio, 2, start90k) : undefined;
    if (audio) this.audioTemplate = { ...audio, samples: [] };
    const tracks: Fmp4Track[] = [video.track];
    if (audio) tracks.push(audio);
    // The audio samples may begin a little before the video's (late audio of the previous part).
    const init = initSegment(this.audioTemplate ? [video.track, this.audioTemplate] : [video.track]);
    const out: PartFmp4 = {
      fragment: mediaFragment(tracks, this.sequence++ % 2 ** 32),
      init,
      initId: crc32Mpeg(init).toString(16).padStart(8, '0'),
      codecs: [video.track.codec, ...(this.audioTemplate ? [this.audioTemplate.codec] : [])],
    };
    const { width, height } = video.track;
    if (width && height) out.resolution = { width, height };
    return out;
  }
}
