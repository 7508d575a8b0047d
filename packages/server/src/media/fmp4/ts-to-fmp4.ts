import { crc32Mpeg } from '../crc32.js';
import { TS_CLOCK, TS_WRAP, tsDiff } from '../ts-packet.js';
import { aacTrack } from './aac-track.js';
import { initSegment } from './init-segment.js';
import { mediaFragment } from './media-fragment.js';
import { readElementaryStreams } from './ts-elementary.js';
import type { Fmp4Track } from './track.js';
import { parameterSetsOf, videoTrack } from './video-track.js';

export interface Fmp4Options {
  /** mfhd sequence_number: the playlist's media sequence (taken modulo 2^32); 1 when not given. */
  sequence?: number;
  /**
   * An unwrapped 90 kHz time near this segment's start, e.g. the previous fragment's `endDts90k`:
   * the segment's 33-bit DTS is put in the wrap nearest to it, so decode times keep rising past
   * the TS clock's wrap (26.5 hours). Without it the DTS is taken as it is.
   */
  nearDts90k?: number;
  /**
   * Video parameter sets from before the segment (the previous segment's `parameterSets`), for a
   * segment the live segmenter cut inside a GOP longer than its target: it carries none.
   */
  parameterSets?: readonly Buffer[];
}

export interface Fmp4Segment {
  /** ftyp + moov: byte-identical for segments with the same tracks and codec parameters. */
  init: Buffer;
  /** The init's checksum (8 hex digits): a name for it in URIs that changes when its bytes do. */
  initId: string;
  /** styp + moof + mdat of the whole segment. */
  fragment: Buffer;
  /** RFC 6381 codec strings of the tracks (video first), for a playlist's CODECS. */
  codecs: string[];
  resolution?: { width: number; height: number };
  /** Decode time of the first and just after the last sample of the first track, unwrapped 90 kHz. */
  startDts90k: number;
  endDts90k: number;
  /** The video parameter sets (NAL units) the init carries, to hand to the next segment. */
  parameterSets: Buffer[];
}

/**
 * Remuxes one whole MPEG-TS segment (PAT/PMT first, starting at a keyframe) to CMAF without
 * re-encoding: one init and one fragment holding its first H.264/HEVC video track (track 1) and
 * its first AAC track (track 2, or 1 without video); other tracks are left out. Video keeps the TS
 * clock (90 kHz, tfdt = the first DTS); audio runs on its sample rate. Fragments of consecutive
 * segments play back to back. Throws when the segment has neither video nor AAC it can read.
 */
export function tsToFmp4(ts: Buffer, options: Fmp4Options = {}): Fmp4Segment {
  const streams = readElementaryStreams(ts);
  const first =
    streams.video?.pes.find((p) => p.dts !== undefined)?.dts ??
    streams.audio?.pes.find((p) => p.pts !== undefined)?.pts;
  if (first === undefined) throw new Error('no H.264, HEVC or AAC (ADTS) with timestamps in the segment');
  const base = nearestWrap(first, options.nearDts90k);
  const start90k = (ts90k: number) => base + tsDiff(ts90k, first);
  const tracks: Fmp4Track[] = [];
  let parameterSets: Buffer[] = [];
  if (streams.video) {
    const video = videoTrack(streams.video.codec, streams.video.pes, 1, start90k, options.parameterSets);
    // Audio alone in its place would change the init's tracks under a player: better no fragment.
    if (!video) throw new Error(`no ${streams.video.codec} parameter sets or no timed frames in the segment`);
    tracks.push(video.track);
    parameterSets = video.parameterSets;
  }
  if (streams.audio) {
    const audio = aacTrack(streams.audio.pes, tracks.length + 1, start90k);
    if (audio) tracks.push(audio);
  }
  const lead = tracks[0];
  if (!lead)
    throw new Error('no H.264, HEVC or AAC (ADTS) the segment could be read as (no SPS/PPS, or no frames)');
  const leadEnd = lead.baseDecodeTime + lead.samples.reduce((n, s) => n + s.duration, 0);
  const toClock = (ticks: number) => Math.round((ticks * TS_CLOCK) / lead.timescale);
  const video = tracks.find((t) => t.kind === 'video');
  const init = initSegment(tracks);
  return {
    init,
    initId: crc32Mpeg(init).toString(16).padStart(8, '0'),
    fragment: mediaFragment(tracks, (options.sequence ?? 1) % 2 ** 32),
    codecs: tracks.map((t) => t.codec),
    ...(video?.width && video.height ? { resolution: { width: video.width, height: video.height } } : {}),
    startDts90k: toClock(lead.baseDecodeTime),
    endDts90k: toClock(leadEnd),
    parameterSets,
  };
}

/** `dts` (33 bits) plus the multiple of 2^33 that puts it nearest to `near`, never below 0. */
export function nearestWrap(dts: number, near: number | undefined): number {
  if (near === undefined) return dts;
  const wraps = Math.round((near - dts) / TS_WRAP);
  return dts + Math.max(0, wraps) * TS_WRAP;
}

/** The video parameter sets a TS segment carries (none for one cut inside a GOP). */
export function videoParameterSets(ts: Buffer): Buffer[] {
  const video = readElementaryStreams(ts).video;
  return video ? parameterSetsOf(video.codec, video.pes) : [];
}
