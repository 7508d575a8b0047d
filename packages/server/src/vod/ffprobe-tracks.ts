import { unescapeRbsp } from '../media/bit-reader.js';
import { nalUnits } from '../media/fmp4/annexb.js';
import { hevcCodecString } from '../media/fmp4/hevc-config.js';
import { avcCodecString, parseH264Sps } from '../media/video-headers.js';
import type { VodTrack } from './vod-source.js';

/** The fields of `ffprobe -show_streams -show_format -show_data -of json` read here. */
export interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  bit_rate?: string;
  /** A hex dump (ffprobe -show_data): avcC/hvcC, or Annex B parameter sets as MPEG-TS carries them. */
  extradata?: string;
  tags?: { language?: string };
}

export interface ProbeFormat {
  format_name?: string;
  start_time?: string;
  duration?: string;
  bit_rate?: string;
}

export interface Probe {
  streams?: ProbeStream[];
  format?: ProbeFormat;
}

/**
 * Audio codecs MPEG-TS carries and players know, with their RFC 6381 strings. Others (Opus, Vorbis,
 * FLAC, PCM in an MKV) have no standard place in the TS segments every format here is cut from.
 */
const AUDIO_CODECS: Record<string, (profile?: string) => string> = {
  aac: (profile) =>
    profile === 'HE-AACv2' ? 'mp4a.40.29' : profile === 'HE-AAC' ? 'mp4a.40.5' : 'mp4a.40.2',
  mp3: () => 'mp4a.40.34',
  ac3: () => 'ac-3',
  eac3: () => 'ec-3',
};

/** H.264 profile names as ffprobe prints them → profile_idc and the constraint byte encoders write. */
const H264_PROFILES: Record<string, [number, number]> = {
  'Constrained Baseline': [66, 0xc0],
  Baseline: [66, 0],
  Main: [77, 0x40],
  Extended: [88, 0],
  High: [100, 0],
  'High 10': [110, 0],
  'High 4:2:2': [122, 0],
  'High 4:4:4 Predictive': [244, 0],
};

/**
 * The tracks of a probed file that the TS segments can carry (H.264/HEVC video; AAC, MP3, AC-3,
 * E-AC-3 audio), in file order, each with its codec string. `videoBitsPerS` is the video's rate
 * measured from its packets, for containers that name no stream bit rate (MPEG-TS, MKV).
 */
export function probeTracks(probe: Probe, videoBitsPerS?: number): VodTrack[] {
  const tracks: VodTrack[] = [];
  const formatBits = Number(probe.format?.bit_rate ?? 0) || 0;
  for (const s of probe.streams ?? []) {
    const lang = s.tags?.language && s.tags.language !== 'und' ? { lang: s.tags.language } : {};
    const ownBits = Number(s.bit_rate ?? 0) || 0;
    if (s.codec_type === 'video' && (s.codec_name === 'h264' || s.codec_name === 'hevc')) {
      const fps = frameRate(s.avg_frame_rate) ?? frameRate(s.r_frame_rate);
      tracks.push({
        id: s.index,
        content: 'video',
        codec: videoCodec(s),
        ...lang,
        bitrate: Math.round(ownBits || videoBitsPerS || formatBits),
        ...(s.width && s.height ? { width: s.width, height: s.height } : {}),
        ...(fps ? { fps } : {}),
      });
    } else if (s.codec_type === 'audio' && s.codec_name && AUDIO_CODECS[s.codec_name]) {
      tracks.push({
        id: s.index,
        content: 'audio',
        codec: AUDIO_CODECS[s.codec_name]!(s.profile),
        ...lang,
        bitrate: ownBits,
        ...(s.channels ? { channels: s.channels } : {}),
        ...(s.sample_rate ? { sample_rate: Number(s.sample_rate) } : {}),
      });
    }
  }
  // Tracks the container names no rate for (AAC in MKV): what the file's rate leaves, shared out.
  const unknown = tracks.filter((t) => t.bitrate === 0);
  const known = tracks.reduce((sum, t) => sum + t.bitrate, 0);
  const share = unknown.length > 0 ? Math.max(0, formatBits - known) / unknown.length : 0;
  for (const t of unknown) t.bitrate = Math.round(share);
  return tracks;
}

/** '25/1' → 25, '30000/1001' → 29.97; undefined for 0/0 and junk. */
function frameRate(ratio: string | undefined): number | undefined {
  const [num, den] = (ratio ?? '').split('/').map(Number);
  if (!num || !den) return undefined;
  return Math.round((num / den) * 100) / 100;
}

/** The codec string from the parameter sets in the extradata; from profile and level without them. */
function videoCodec(s: ProbeStream): string {
  const data = s.extradata ? hexDump(s.extradata) : Buffer.alloc(0);
  if (s.codec_name === 'h264') {
    const sps = h264Sps(data);
    const info = sps ? parseH264Sps(sps) : undefined;
    if (info) return avcCodecString(info);
    const [profile, constraints] = H264_PROFILES[s.profile ?? ''] ?? [100, 0];
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    return `avc1.${hex(profile)}${hex(constraints)}${hex(s.level && s.level > 0 ? s.level : 0x1f)}`;
  }
  const ptl = hevcPtl(data);
  if (ptl) return hevcCodecString(ptl);
  const main10 = s.profile === 'Main 10';
  return `hvc1.${main10 ? 2 : 1}.${main10 ? 4 : 6}.L${s.level && s.level > 0 ? s.level : 93}.B0`;
}

/** The bytes of an ffprobe hex dump: lines of `00000000: 0000 0167 6400 …  ascii`. */
export function hexDump(text: string): Buffer {
  const hex = text
    .split('\n')
    .filter((line) => /^[0-9a-f]{8}: /.test(line))
    .map((line) => line.slice(10, 49).replace(/\s/g, ''))
    .join('');
  return Buffer.from(hex, 'hex');
}

/** The first SPS of an avcC record (first byte 1) or of Annex B NAL units. */
function h264Sps(data: Buffer): Buffer | undefined {
  if (data[0] === 1 && data.length > 8) {
    const length = data.readUInt16BE(6);
    return data.length >= 8 + length ? data.subarray(8, 8 + length) : undefined;
  }
  return nalUnits(data).find((nal) => (nal[0]! & 0x1f) === 7);
}

/** general_profile_tier_level (12 bytes) of an hvcC record or of an Annex B SPS. */
function hevcPtl(data: Buffer): Buffer | undefined {
  if (data[0] === 1 && data.length >= 13) return data.subarray(1, 13);
  const sps = nalUnits(data).find((nal) => ((nal[0]! >> 1) & 0x3f) === 33);
  if (!sps || sps.length < 16) return undefined;
  // After the 2-byte NAL header, one byte of VPS id, sub-layer count and nesting flag.
  return Buffer.from(unescapeRbsp(sps.subarray(3, 20))).subarray(0, 12);
}
