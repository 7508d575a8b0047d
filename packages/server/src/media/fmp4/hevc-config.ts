import { BitReader, unescapeRbsp } from '../bit-reader.js';
import { HEVC_PPS, HEVC_SPS, HEVC_VPS } from '../h26x-nal.js';
import { parseHevcSps } from '../video-headers.js';
import type { VideoConfig } from './avc-config.js';
import { box, type Bytes, u16, u8 } from './mp4-box.js';

/** What hvcC takes from the SPS beyond its general profile_tier_level bytes (H.265 §7.3.2.2). */
interface SpsFormat {
  /** general_profile_space … general_level_idc: 12 bytes, copied as they are. */
  ptl: Buffer;
  subLayers: number;
  temporalIdNesting: boolean;
  chroma: number;
  lumaMinus8: number;
  chromaMinus8: number;
}

function spsFormat(sps: Buffer): SpsFormat | undefined {
  try {
    const rbsp = Buffer.from(unescapeRbsp(sps.subarray(2)));
    const r = new BitReader(rbsp);
    r.skip(4); // sps_video_parameter_set_id
    const maxSubLayersMinus1 = r.u(3);
    const temporalIdNesting = r.flag();
    r.skip(96); // the general profile_tier_level, taken as bytes below
    const subLayers: [boolean, boolean][] = [];
    for (let i = 0; i < maxSubLayersMinus1; i++) subLayers.push([r.flag(), r.flag()]);
    if (maxSubLayersMinus1 > 0) r.skip(2 * (8 - maxSubLayersMinus1));
    for (const [profile, level] of subLayers) r.skip((profile ? 88 : 0) + (level ? 8 : 0));
    r.ue(); // sps_seq_parameter_set_id
    const chroma = r.ue();
    if (chroma === 3) r.skip(1);
    r.ue(); // pic_width_in_luma_samples
    r.ue(); // pic_height_in_luma_samples
    if (r.flag()) for (let i = 0; i < 4; i++) r.ue(); // conformance window
    const lumaMinus8 = r.ue();
    const chromaMinus8 = r.ue();
    return {
      ptl: rbsp.subarray(1, 13),
      subLayers: maxSubLayersMinus1 + 1,
      temporalIdNesting,
      chroma,
      lumaMinus8,
      chromaMinus8,
    };
  } catch {
    return undefined;
  }
}

/** The HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 §8.3.3.1) of a VPS, SPS and PPS set. */
export function hevcConfig(sets: {
  vps: readonly Buffer[];
  sps: readonly Buffer[];
  pps: readonly Buffer[];
}): VideoConfig | undefined {
  const sps = sets.sps[0];
  const info = sps ? parseHevcSps(sps) : undefined;
  const format = sps ? spsFormat(sps) : undefined;
  if (!info || !format || sets.vps.length === 0 || sets.pps.length === 0) return undefined;
  const arrays: [number, readonly Buffer[]][] = [
    [HEVC_VPS, sets.vps],
    [HEVC_SPS, sets.sps],
    [HEVC_PPS, sets.pps],
  ];
  const body: Bytes[] = [
    u8(1),
    format.ptl,
    u16(0xf000), // min_spatial_segmentation_idc 0: not known
    u8(0xfc, 0xfc | format.chroma, 0xf8 | format.lumaMinus8, 0xf8 | format.chromaMinus8),
    u16(0), // avgFrameRate: not given
    // constantFrameRate 0, numTemporalLayers, temporalIdNested, lengthSizeMinusOne 3.
    u8(((format.subLayers & 7) << 3) | (format.temporalIdNesting ? 4 : 0) | 3),
    u8(arrays.length),
    ...arrays.flatMap(([type, nals]) => [
      // array_completeness 1: every set of the type is here, none comes in-band.
      u8(0x80 | type),
      u16(nals.length),
      ...nals.flatMap((nal) => [u16(nal.length), nal]),
    ]),
  ];
  return {
    configBox: box('hvcC', ...body),
    sampleEntryType: 'hvc1',
    width: info.width,
    height: info.height,
    codec: hevcCodecString(format.ptl),
  };
}

/** RFC 6381 / ISO 14496-15 Annex E: hvc1.{space}{profile}.{compat, bits reversed}.{tier}{level}.{constraints}. */
export function hevcCodecString(ptl: Buffer): string {
  const space = ['', 'A', 'B', 'C'][ptl[0]! >> 6]!;
  const tier = (ptl[0]! & 0x20) !== 0 ? 'H' : 'L';
  const profile = ptl[0]! & 0x1f;
  const compat = ptl.readUInt32BE(1);
  let reversed = 0;
  for (let bit = 0; bit < 32; bit++) if (compat & (1 << bit)) reversed |= 1 << (31 - bit);
  const constraints = [...ptl.subarray(5, 11)];
  while (constraints.length > 0 && constraints[constraints.length - 1] === 0) constraints.pop();
  const parts = [`hvc1`, `${space}${profile}`, (reversed >>> 0).toString(16), `${tier}${ptl[11]}`];
  for (const byte of constraints) parts.push(byte.toString(16).toUpperCase());
  return parts.join('.');
}
