import type { Transcoder } from '@sluice/api';
import { encoderName, type Hardware, type VideoCodec } from './transcoder-hw.js';

export type VideoTrack = NonNullable<Transcoder['video']>[string];

/** x264's speed when the track names none: live transcoding on small machines favours speed. */
export const DEFAULT_SOFTWARE_PRESET = 'veryfast';

/** MPEG-2 profiles and levels by the names the console offers (spec 001 §9), as ffmpeg numbers them. */
const MPEG2_PROFILES: Record<string, string> = { high: '1', main: '4', simple: '5' };
const MPEG2_LEVELS: Record<string, string> = { high: '4', high1440: '6', main: '8', low: '10' };

/**
 * The console's NVENC presets (spec 001 §9) as ffmpeg 5.1's nvenc names them: "loseless" is the
 * console's spelling; zerolatency and veryfast are no nvenc presets, so they pick the nearest one.
 */
const NVENC_PRESETS: Record<string, string> = {
  bd: 'bd',
  default: 'default',
  ll: 'll',
  llhq: 'llhq',
  loseless: 'lossless',
  loselesshq: 'lossless',
  medium: 'medium',
  veryfast: 'fast',
  zerolatency: 'll',
  slow: 'slow',
  fast: 'fast',
};

/**
 * Extra option keys refused: they would add inputs or outputs, replace the graph or the muxer,
 * or make ffmpeg write files. Everything else passes as `-KEY:v:N VALUE` to the track's encoder.
 */
const FORBIDDEN_EXTRA = new Set([
  'i',
  'f',
  'y',
  'n',
  'map',
  'filter_complex',
  'lavfi',
  'filter_script',
  'filter_complex_script',
  'progress',
  'report',
  'attach',
  'dump_attachment',
  'passlogfile',
  'stats',
  'vstats_file',
  'sdp_file',
  'program',
  'codec',
  'c',
  'vf',
  'filter',
]);

export const extraKeyAllowed = (key: string): boolean =>
  /^[a-z][a-z0-9_-]*$/i.test(key) && !FORBIDDEN_EXTRA.has(key.toLowerCase());

/**
 * Encoder flags of output video stream `n` (`:v:n` specifiers, so each rendition has its own).
 * `keyframeSeconds`: with no GOP set, a keyframe is forced every segment, at the same instants in
 * every rendition, so their HLS segments line up for players switching between them.
 */
export function videoEncoderArgs(
  hw: Hardware,
  deviceId: number,
  n: number,
  track: VideoTrack,
  keyframeSeconds: number,
): string[] {
  const s = `:v:${n}`;
  if (track.bitrate === 'copy') return [`-c${s}`, 'copy'];
  const codec: VideoCodec = track.codec ?? 'h264';
  const encoder = encoderName(hw, codec);
  const bps = Math.round(track.bitrate);
  const args = [`-c${s}`, encoder, `-b${s}`, String(bps)];
  // A VBV of one second at the target rate keeps each segment near the configured bitrate, which
  // is what the master playlist's BANDWIDTH promises a player choosing a variant.
  if (encoder !== 'h264_v4l2m2m' && encoder !== 'hevc_v4l2m2m')
    args.push(`-maxrate${s}`, String(bps), `-bufsize${s}`, String(bps));
  if (encoder.endsWith('_nvenc')) {
    args.push(`-gpu${s}`, String(deviceId));
    const preset = NVENC_PRESETS[track.preset ?? 'medium'] ?? 'medium';
    args.push(`-preset${s}`, preset);
    if (track.preset === 'zerolatency') args.push(`-zerolatency${s}`, '1');
  } else if (encoder === 'libx264' || encoder === 'libx265' || encoder.endsWith('_qsv')) {
    args.push(`-preset${s}`, track.preset ?? DEFAULT_SOFTWARE_PRESET);
  }
  args.push(...profileLevelArgs(encoder, s, track));
  if (track.bframes !== undefined) args.push(`-bf${s}`, String(track.bframes));
  if (track.refs !== undefined && encoder !== 'mpeg2video') args.push(`-refs${s}`, String(track.refs));
  const gop = track.g ?? track.gop;
  if (gop !== undefined) args.push(`-g${s}`, String(gop));
  else args.push(`-force_key_frames${s}`, `expr:gte(t,n_forced*${keyframeSeconds})`);
  // Scene cuts would add keyframes at different instants in each rendition (x264 and MPEG-2 read
  // this generic flag; x265 takes it in its params below).
  if (encoder === 'libx264' || encoder === 'mpeg2video') args.push(`-sc_threshold${s}`, '0');
  // x264 closes GOPs unless told otherwise: disable_cgop lets B-frames reference across them.
  if (track.disable_cgop && encoder === 'libx264') args.push(`-x264opts${s}`, 'open-gop=1');
  if (encoder === 'libx265') args.push(`-x265-params${s}`, x265Params(track));
  if (track.aspect) args.push(`-aspect${s}`, `${track.aspect.x}:${track.aspect.y}`);
  for (const [key, value] of Object.entries(track.extra ?? {})) {
    if (extraKeyAllowed(key)) args.push(`-${key}${s}`, String(value));
  }
  return args;
}

function profileLevelArgs(encoder: string, s: string, track: VideoTrack): string[] {
  const out: string[] = [];
  if (encoder === 'mpeg2video') {
    const profile = track.profile ? MPEG2_PROFILES[track.profile] : undefined;
    const level = track.level ? MPEG2_LEVELS[track.level] : undefined;
    if (profile) out.push(`-profile${s}`, profile);
    if (level) out.push(`-level${s}`, level);
    return out;
  }
  if (track.profile) out.push(`-profile${s}`, track.profile);
  if (!track.level) return out;
  // Quick Sync reads the generic integer level: the standards' level_idc (H.264: 10 x level,
  // HEVC: 30 x level); libx264 and NVENC take the level's name; libx265 takes it in x265-params.
  if (encoder === 'h264_qsv') out.push(`-level${s}`, String(Math.round(Number(track.level) * 10)));
  else if (encoder === 'hevc_qsv') out.push(`-level${s}`, String(Math.round(Number(track.level) * 30)));
  else if (encoder !== 'libx265') out.push(`-level${s}`, track.level);
  return out;
}

/** libx265's own settings: its level, no scene-cut keyframes, and quiet logging on stderr. */
function x265Params(track: VideoTrack): string {
  const params = ['log-level=error', 'scenecut=0'];
  if (track.level) params.push(`level-idc=${track.level}`);
  if (track.disable_cgop) params.push('open-gop=1');
  else params.push('open-gop=0');
  return params.join(':');
}

/** The pixel format each codec's rendition is encoded in; main10 HEVC needs 10 bits. */
export const pixelFormat = (track: VideoTrack): string =>
  track.codec === 'hevc' && track.profile === 'main10' ? 'yuv420p10le' : 'yuv420p';
