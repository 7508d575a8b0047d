import { aacTrack } from '../media/fmp4/aac-track.js';
import { readElementaryStreams } from '../media/fmp4/ts-elementary.js';
import type { Fmp4Sample, Fmp4Track } from '../media/fmp4/track.js';
import { videoTrack } from '../media/fmp4/video-track.js';
import { nearestWrap } from '../media/fmp4/ts-to-fmp4.js';
import { TS_CLOCK, tsDiff } from '../media/ts-packet.js';

/** Smooth Streaming's TimeScale: 100 ns units (the manifest says so; dash.js builds its moov on it). */
export const MSS_TIMESCALE = 10_000_000;

/** One track of one fragment, on the MSS timescale; `t`/`d` are what the manifest lists. */
export interface MssTrackFragment {
  track: Fmp4Track;
  t: number;
  d: number;
  bytes: number;
}

export interface MssVideo extends MssTrackFragment {
  /** `00000001 SPS 00000001 PPS`, hex: the QualityLevel's CodecPrivateData for AVC1. */
  codecPrivateData: string;
  width: number;
  height: number;
}

export interface MssAudio extends MssTrackFragment {
  /** The AudioSpecificConfig, hex: CodecPrivateData for AACL. */
  codecPrivateData: string;
  sampleRate: number;
  channels: number;
}

export interface MssSegment {
  video?: MssVideo;
  audio?: MssAudio;
  /** Just after the last video (else audio) sample, unwrapped 90 kHz: where the next segment goes on. */
  endDts90k: number;
  parameterSets: Buffer[];
}

/**
 * One whole MPEG-TS segment as Smooth Streaming fragments, one per track, with the fMP4 remuxer's
 * tracks (media/fmp4: AVCC samples, raw AAC) moved to the 100 ns timescale. H.264 only (dash.js's
 * MSS module takes AVC1/H264 and AAC). `nearDts90k` puts the TS clock in the wrap nearest to it;
 * `parameterSets` serve a segment cut inside a GOP. Throws when the segment has nothing to carry.
 */
export function mssSegment(
  ts: Buffer,
  options: { nearDts90k?: number; parameterSets?: readonly Buffer[] } = {},
): MssSegment {
  const streams = readElementaryStreams(ts);
  if (streams.video && streams.video.codec !== 'h264')
    throw new Error(`Smooth Streaming carries H.264 video, not ${streams.video.codec}`);
  const first =
    streams.video?.pes.find((p) => p.dts !== undefined)?.dts ??
    streams.audio?.pes.find((p) => p.pts !== undefined)?.pts;
  if (first === undefined) throw new Error('no H.264 or AAC with timestamps in the segment');
  const base = nearestWrap(first, options.nearDts90k);
  const start90k = (ts90k: number) => base + tsDiff(ts90k, first);
  const out: MssSegment = { endDts90k: base, parameterSets: [] };
  if (streams.video) {
    const made = videoTrack('h264', streams.video.pes, 1, start90k, options.parameterSets);
    if (!made) throw new Error('no H.264 parameter sets or no timed frames in the segment');
    const track = onMssClock(made.track);
    const sets = made.parameterSets.map((s) => `00000001${s.toString('hex')}`).join('');
    out.video = {
      ...track,
      codecPrivateData: sets.toUpperCase(),
      width: made.track.width ?? 0,
      height: made.track.height ?? 0,
    };
    out.parameterSets = made.parameterSets;
    out.endDts90k = endOf(made.track);
  }
  const audio = streams.audio ? aacTrack(streams.audio.pes, 1, start90k) : undefined;
  if (audio) {
    const config = audioSpecificConfig(audio.sampleEntry);
    if (config)
      out.audio = {
        ...onMssClock(audio),
        codecPrivateData: config.toString('hex').toUpperCase(),
        sampleRate: audio.timescale,
        channels: audio.sampleEntry.readUInt16BE(24),
      };
  }
  if (!out.video && !out.audio) throw new Error('no H.264 or AAC the segment could be read as');
  if (!out.video && audio) out.endDts90k = Math.round((endOf(audio) * TS_CLOCK) / audio.timescale);
  return out;
}

const endOf = (track: Fmp4Track) => track.samples.reduce((n, s) => n + s.duration, track.baseDecodeTime);

/**
 * A track moved to the 100 ns clock: each sample's start is rounded from its exact time, so
 * durations carry no rounding drift and the fragment ends where the next one's start is rounded to.
 */
export function onMssClock(track: Fmp4Track): MssTrackFragment {
  const scale = (ticks: number) => Math.round((ticks * MSS_TIMESCALE) / track.timescale);
  let at = track.baseDecodeTime;
  let bytes = 0;
  const samples: Fmp4Sample[] = track.samples.map((s) => {
    const start = scale(at);
    at += s.duration;
    bytes += s.size;
    return { ...s, duration: scale(at) - start, compositionOffset: scale(s.compositionOffset) };
  });
  const t = scale(track.baseDecodeTime);
  return {
    track: { ...track, timescale: MSS_TIMESCALE, baseDecodeTime: t, samples },
    t,
    d: scale(at) - t,
    bytes,
  };
}

/** The DecoderSpecificInfo of an mp4a sample entry's esds (as media/fmp4/aac-track.ts writes it). */
export function audioSpecificConfig(entry: Buffer): Buffer | undefined {
  const esds = entry.indexOf('esds', 0, 'latin1');
  if (esds < 0) return undefined;
  // After the FullBox header: ES_Descriptor (03), ES_ID, flags; DecoderConfigDescriptor (04) with
  // 13 bytes of fields; then DecSpecificInfo (05). One-byte sizes, as written there.
  let at = esds + 8;
  if (entry[at] !== 0x03) return undefined;
  at += 2 + 3;
  if (entry[at] !== 0x04) return undefined;
  at += 2 + 13;
  if (entry[at] !== 0x05) return undefined;
  const size = entry[at + 1]!;
  return at + 2 + size <= entry.length ? entry.subarray(at + 2, at + 2 + size) : undefined;
}
