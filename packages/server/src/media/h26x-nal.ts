import { BitReader, unescapeRbsp } from './bit-reader.js';

/** SEI payloadType of a recovery point (ITU-T H.264 §D.1.8). */
const RECOVERY_POINT = 6;

/**
 * recovery_frame_cnt of the recovery point message in an H.264 SEI NAL unit (starting at its header
 * byte), or undefined when the unit carries none. 0 means the picture it comes with, and all after
 * it in output order, decode exactly from here: an open-GOP encoder's I-frame.
 */
export function h264RecoveryFrameCount(nal: Uint8Array): number | undefined {
  const rbsp = unescapeRbsp(nal.subarray(1));
  let i = 0;
  // Each message: payloadType and payloadSize, each as a run of 0xFF bytes plus a last byte (§7.3.2.3.1).
  // The 0x80 of rbsp_trailing_bits ends the list.
  while (i < rbsp.length && rbsp[i] !== 0x80) {
    let type = 0;
    for (; rbsp[i] === 0xff; i++) type += 255;
    type += rbsp[i++] ?? 0;
    let size = 0;
    for (; rbsp[i] === 0xff; i++) size += 255;
    size += rbsp[i++] ?? 0;
    if (i + size > rbsp.length) return undefined;
    if (type === RECOVERY_POINT) {
      try {
        return new BitReader(rbsp.subarray(i, i + size)).ue();
      } catch {
        return undefined;
      }
    }
    i += size;
  }
  return undefined;
}

/**
 * Whether an H.264 slice NAL unit (types 1–5, from its header byte) codes an I or SI slice; undefined
 * when the bytes end before slice_type. slice_type is the slice header's second field (§7.3.3);
 * values 2 and 7 are I, 4 and 9 SI (Table 7-6).
 */
export function h264SliceIsIntra(nal: Uint8Array): boolean | undefined {
  try {
    const r = new BitReader(unescapeRbsp(nal.subarray(1, 17)));
    r.ue(); // first_mb_in_slice
    const sliceType = r.ue() % 5;
    return sliceType === 2 || sliceType === 4;
  } catch {
    return undefined;
  }
}

/** H.264 parameter set NAL types (§7.4.1.2.3): what a decoder needs before a picture. */
export const H264_SPS = 7;
export const H264_PPS = 8;
/** HEVC's video, sequence and picture parameter sets (ITU-T H.265 Table 7-1). */
export const HEVC_VPS = 32;
export const HEVC_SPS = 33;
export const HEVC_PPS = 34;

/**
 * The parameter set's id, so that a stream using several (PPS 0 and 1) keeps each: H.264 SPS
 * (after profile, constraints, level), H.264 and HEVC PPS (first field), HEVC VPS (first 4 bits).
 * HEVC SPS ids sit behind the variable profile_tier_level and are taken as one.
 */
export function parameterSetId(type: number, nal: Uint8Array): number {
  try {
    if (type === H264_SPS) {
      const r = new BitReader(unescapeRbsp(nal.subarray(1, 12)));
      r.skip(24);
      return r.ue();
    }
    if (type === H264_PPS) return new BitReader(unescapeRbsp(nal.subarray(1, 8))).ue();
    if (type === HEVC_VPS) return (nal[2] ?? 0) >> 4;
    if (type === HEVC_PPS) return new BitReader(unescapeRbsp(nal.subarray(2, 8))).ue();
    return 0;
  } catch {
    return 0;
  }
}
