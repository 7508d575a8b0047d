/**
 * The contract between the VOD file readers (mp4-source.ts for MP4, ffmpeg-source.ts for the rest)
 * and VOD playback (vod-handler.ts and the HLS, DASH and MPEG-TS answers built on it): one opened
 * file, its tracks, its segments cut at video keyframes, and each segment as MPEG-TS. Every format a
 * player asks for is made from these segments, so no copy of the file is ever written.
 */

/** A track of a file (spec 000 §3 "Track" fields, as stream stats carry them). */
export interface VodTrack {
  /** The track's id in the file (MP4 track_ID, or the ffprobe stream index). */
  id: number;
  content: 'video' | 'audio';
  /** RFC 6381 codec string, as HLS CODECS and DASH @codecs want it: 'avc1.64001f', 'mp4a.40.2'. */
  codec: string;
  /** ISO 639-2 language when the file names one ('und' is left out). */
  lang?: string;
  /** Average bit rate over the file, bits per second. */
  bitrate: number;
  width?: number;
  height?: number;
  fps?: number;
  channels?: number;
  sample_rate?: number;
}

/** A segment of the file: from one video keyframe to the next cut (seconds from the file's start). */
export interface VodSegment {
  startS: number;
  durationS: number;
}

export interface VodSource {
  /** The file as opened (absolute path), its size and modification time when opened. */
  readonly path: string;
  readonly sizeBytes: number;
  readonly mtimeMs: number;
  readonly durationS: number;
  readonly tracks: readonly VodTrack[];
  /**
   * Consecutive segments covering the file, each starting at a video keyframe (audio-only files:
   * every few seconds), none longer than needed: about VOD_SEGMENT_TARGET_S unless the GOP is longer.
   */
  readonly segments: readonly VodSegment[];
  /**
   * Segment `index` as MPEG-TS: PAT/PMT first, the video keyframe first, the tracks `trackIds`
   * (default: the first video and the first audio track). PTS/DTS in 90 kHz are the media time from
   * the file's start plus VOD_PTS_OFFSET_S, so the segments of one file concatenate into continuous
   * MPEG-TS. Rejects with an Error naming the file when it cannot be read or is damaged.
   */
  tsSegment(index: number, trackIds?: readonly number[]): Promise<Buffer>;
  /** Releases what the source holds open (file handles, caches). */
  close(): void;
}

/** Opens a file as a VodSource; rejects with an Error naming the file and the problem. */
export type OpenVodSource = (absolutePath: string) => Promise<VodSource>;

/** The segment length aimed at, seconds: what the live segmenter cuts. */
export const VOD_SEGMENT_TARGET_S = 4;
/** Added to every PTS/DTS, seconds, so B-frame CTS offsets never make a timestamp negative. */
export const VOD_PTS_OFFSET_S = 10;
