import { BitReader, unescapeRbsp } from '../bit-reader.js';
import { avcCodecString, parseH264Sps } from '../video-headers.js';
import { box, type Bytes, u16, u8 } from './mp4-box.js';

/** Profiles whose avcC carries chroma format and bit depths after the PPS list (14496-15 §5.3.3.1.2). */
const HIGH_PROFILES = new Set([100, 110, 122, 144]);

export interface VideoConfig {
  /** The avcC or hvcC box, for the sample entry. */
  configBox: Buffer;
  sampleEntryType: 'avc1' | 'hvc1';
  width: number;
  height: number;
  /** RFC 6381 codec string for the playlist's CODECS. */
  codec: string;
}

/** The AVCDecoderConfigurationRecord of the first SPS and its PPSs; undefined without an SPS. */
export function avcConfig(spsList: readonly Buffer[], ppsList: readonly Buffer[]): VideoConfig | undefined {
  const sps = spsList[0];
  const info = sps ? parseH264Sps(sps) : undefined;
  if (!sps || !info || sps.length < 4) return undefined;
  const body: Bytes[] = [
    // configurationVersion, profile, compatibility, level; lengthSizeMinusOne 3 (4-byte lengths).
    u8(1, sps[1]!, sps[2]!, sps[3]!, 0xfc | 3, 0xe0 | spsList.length),
    ...spsList.flatMap((s) => [u16(s.length), s]),
    u8(ppsList.length),
    ...ppsList.flatMap((p) => [u16(p.length), p]),
  ];
  if (HIGH_PROFILES.has(info.profileIdc)) {
    const format = chromaAndDepth(sps);
    body.push(u8(0xfc | format.chroma, 0xf8 | format.lumaMinus8, 0xf8 | format.chromaMinus8, 0));
  }
  return {
    configBox: box('avcC', ...body),
    sampleEntryType: 'avc1',
    width: info.width,
    height: info.height,
    codec: avcCodecString(info),
  };
}

/** chroma_format_idc and bit depths from a High-profile SPS (H.264 §7.3.2.1.1). */
function chromaAndDepth(sps: Buffer): { chroma: number; lumaMinus8: number; chromaMinus8: number } {
  try {
    const r = new BitReader(unescapeRbsp(sps.subarray(4, 32)));
    r.ue(); // seq_parameter_set_id
    const chroma = r.ue();
    if (chroma === 3) r.skip(1);
    return { chroma, lumaMinus8: r.ue(), chromaMinus8: r.ue() };
  } catch {
    return { chroma: 1, lumaMinus8: 0, chromaMinus8: 0 };
  }
}
