import { BitReader, unescapeRbsp } from './bit-reader.js';

/** What an H.264 sequence parameter set says about the picture (ITU-T H.264 §7.3.2.1.1). */
export interface H264Sps {
  width: number;
  height: number;
  profileIdc: number;
  /** The constraint_set flags byte, needed for the RFC 6381 codec string. */
  constraints: number;
  levelIdc: number;
  profile: string;
  level: string;
}

/** Profiles whose SPS carries chroma format and bit depth fields. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

const PROFILE_NAMES: Record<number, string> = {
  66: 'Baseline',
  77: 'Main',
  88: 'Extended',
  100: 'High',
  110: 'High 10',
  122: 'High 4:2:2',
  244: 'High 4:4:4',
};

/** Parses an SPS NAL unit (starting at its header byte); undefined when it is truncated or corrupt. */
export function parseH264Sps(nal: Uint8Array): H264Sps | undefined {
  try {
    const rbsp = unescapeRbsp(nal.subarray(1));
    const r = new BitReader(rbsp);
    const profileIdc = r.u(8);
    const constraints = r.u(8);
    const levelIdc = r.u(8);
    r.ue(); // seq_parameter_set_id
    let chromaFormat = 1;
    if (HIGH_PROFILES.has(profileIdc)) {
      chromaFormat = r.ue();
      if (chromaFormat === 3) r.skip(1); // separate_colour_plane_flag
      r.ue(); // bit_depth_luma_minus8
      r.ue(); // bit_depth_chroma_minus8
      r.skip(1); // qpprime_y_zero_transform_bypass_flag
      if (r.flag()) skipScalingLists(r, chromaFormat === 3 ? 12 : 8);
    }
    r.ue(); // log2_max_frame_num_minus4
    const pocType = r.ue();
    if (pocType === 0) r.ue();
    else if (pocType === 1) {
      r.skip(1);
      r.se();
      r.se();
      const cycle = r.ue();
      for (let i = 0; i < cycle; i++) r.se();
    }
    r.ue(); // max_num_ref_frames
    r.skip(1); // gaps_in_frame_num_value_allowed_flag
    const widthMbs = r.ue() + 1;
    const heightMapUnits = r.ue() + 1;
    const frameMbsOnly = r.u(1);
    if (!frameMbsOnly) r.skip(1); // mb_adaptive_frame_field_flag
    r.skip(1); // direct_8x8_inference_flag
    let crop = [0, 0, 0, 0];
    if (r.flag()) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
    // Crop units depend on chroma subsampling (Table 6-1) and on field coding.
    const subWidth = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
    const subHeight = chromaFormat === 1 ? 2 : 1;
    const cropX = chromaFormat === 0 ? 1 : subWidth;
    const cropY = (chromaFormat === 0 ? 1 : subHeight) * (2 - frameMbsOnly);
    const [left, right, top, bottom] = crop as [number, number, number, number];
    const width = widthMbs * 16 - (left + right) * cropX;
    const height = (2 - frameMbsOnly) * heightMapUnits * 16 - (top + bottom) * cropY;
    if (width <= 0 || height <= 0) return undefined;
    const constrainedBaseline = profileIdc === 66 && (constraints & 0x40) !== 0;
    return {
      width,
      height,
      profileIdc,
      constraints,
      levelIdc,
      profile: constrainedBaseline
        ? 'Constrained Baseline'
        : (PROFILE_NAMES[profileIdc] ?? String(profileIdc)),
      level: (levelIdc / 10).toFixed(1),
    };
  } catch {
    return undefined;
  }
}

function skipScalingLists(r: BitReader, count: number): void {
  for (let i = 0; i < count; i++) {
    if (!r.flag()) continue;
    const size = i < 6 ? 16 : 64;
    let last = 8;
    let next = 8;
    for (let j = 0; j < size; j++) {
      if (next !== 0) next = (last + r.se() + 256) % 256;
      last = next === 0 ? last : next;
    }
  }
}

const HEVC_PROFILES: Record<number, string> = {
  1: 'Main',
  2: 'Main 10',
  3: 'Main Still Picture',
  4: 'Range Extensions',
};

/** Parses an HEVC SPS NAL unit (ITU-T H.265 §7.3.2.2) for its size, profile and level. */
export function parseHevcSps(nal: Uint8Array): Omit<H264Sps, 'constraints'> | undefined {
  try {
    const r = new BitReader(unescapeRbsp(nal.subarray(2)));
    r.skip(4); // sps_video_parameter_set_id
    const maxSubLayersMinus1 = r.u(3);
    r.skip(1); // sps_temporal_id_nesting_flag
    r.skip(3); // general_profile_space, general_tier_flag
    const profileIdc = r.u(5);
    r.skip(32 + 48); // compatibility flags; source flags and reserved bits
    const levelIdc = r.u(8);
    const subLayers: [boolean, boolean][] = [];
    for (let i = 0; i < maxSubLayersMinus1; i++) subLayers.push([r.flag(), r.flag()]);
    if (maxSubLayersMinus1 > 0) r.skip(2 * (8 - maxSubLayersMinus1));
    for (const [profilePresent, levelPresent] of subLayers) {
      if (profilePresent) r.skip(88);
      if (levelPresent) r.skip(8);
    }
    r.ue(); // sps_seq_parameter_set_id
    const chromaFormat = r.ue();
    if (chromaFormat === 3) r.skip(1);
    let width = r.ue();
    let height = r.ue();
    if (r.flag()) {
      // Conformance window offsets count in chroma samples.
      const unitX = chromaFormat === 1 || chromaFormat === 2 ? 2 : 1;
      const unitY = chromaFormat === 1 ? 2 : 1;
      width -= (r.ue() + r.ue()) * unitX;
      height -= (r.ue() + r.ue()) * unitY;
    }
    if (width <= 0 || height <= 0) return undefined;
    return {
      width,
      height,
      profileIdc,
      levelIdc,
      profile: HEVC_PROFILES[profileIdc] ?? String(profileIdc),
      // general_level_idc is 30 × the level number (H.265 §A.4).
      level: (levelIdc / 30).toFixed(1),
    };
  } catch {
    return undefined;
  }
}

/** The RFC 6381 codec string HLS master playlists carry, e.g. avc1.64001f. */
export function avcCodecString(sps: H264Sps): string {
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  return `avc1.${hex(sps.profileIdc)}${hex(sps.constraints)}${hex(sps.levelIdc)}`;
}

/** MPEG-2 video sequence header (ISO 13818-2 §6.2.2.1), found after the 00 00 01 B3 start code. */
export function parseMpeg2SequenceHeader(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 3) return undefined;
  const width = (bytes[0]! << 4) | (bytes[1]! >> 4);
  const height = ((bytes[1]! & 0x0f) << 8) | bytes[2]!;
  return width > 0 && height > 0 ? { width, height } : undefined;
}
