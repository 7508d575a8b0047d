import { hevcCodecString } from '../media/fmp4/hevc-config.js';
import { HEVC_PPS, HEVC_SPS, HEVC_VPS } from '../media/h26x-nal.js';
import { type BoxHeader, boxAt, child, childBoxes, Mp4Error } from './mp4-box-reader.js';

/** What the first sample description of a track ('stsd', ISO 14496-12 §8.5.2) says, when supported. */
export type SampleEntry = VideoEntry | AudioEntry;

export interface VideoEntry {
  content: 'video';
  codec: 'h264' | 'hevc';
  /** RFC 6381: avc1.64001f, hvc1.1.6.L93.B0. */
  codecString: string;
  /** Bytes of each NAL unit's length prefix in the samples. */
  nalLengthSize: number;
  /** The parameter sets from avcC/hvcC, Annex B, written before each keyframe. */
  parameterSetsAnnexB: Buffer;
  width: number;
  height: number;
}

export interface AudioEntry {
  content: 'audio';
  codec: 'aac';
  codecString: string;
  /** What each ADTS header carries (ISO 14496-3 §1.A.2.2). */
  adtsProfile: number;
  frequencyIndex: number;
  channelConfig: number;
  sampleRate: number;
  channels: number;
}

const START_CODE = Buffer.from([0, 0, 0, 1]);
const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
/** ObjectTypeIndication of MPEG-4 audio and of the MPEG-2 AAC profiles (ISO 14496-1 Table 5). */
const AAC_OBJECT_TYPES = new Set([0x40, 0x66, 0x67, 0x68]);

/**
 * Reads the first entry of 'stsd'. Returns the entry type as a string when the codec is not one
 * this reader serves (the track is listed as unsupported and skipped).
 */
export function readSampleEntry(moov: Buffer, stsd: BoxHeader): SampleEntry | string {
  if (stsd.contentStart + 8 > stsd.end) throw new Mp4Error("the 'stsd' box is cut short");
  const entry = boxAt(moov, stsd.contentStart + 8, stsd.end);
  switch (entry.type) {
    case 'avc1':
    case 'avc3':
      return avcEntry(moov, entry);
    case 'hev1':
    case 'hvc1':
      return hevcEntry(moov, entry);
    case 'mp4a':
      return aacEntry(moov, entry) ?? 'mp4a (not AAC)';
    default:
      return entry.type;
  }
}

/** VisualSampleEntry (§12.1.3): 8 bytes of SampleEntry, then 70 bytes with width and height. */
const VISUAL_FIELDS = 78;

function avcEntry(moov: Buffer, entry: BoxHeader): VideoEntry {
  const avcC = child(moov, entry, 'avcC', VISUAL_FIELDS);
  if (!avcC || avcC.end - avcC.contentStart < 7)
    throw new Mp4Error("an H.264 track has no usable 'avcC' box");
  const record = moov.subarray(avcC.contentStart, avcC.end);
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  const sets: Buffer[] = [];
  let o = 5;
  for (const countMask of [0x1f, 0xff]) {
    const count = (record[o++] ?? 0) & countMask;
    for (let i = 0; i < count && o + 2 <= record.length; i++) {
      const length = record.readUInt16BE(o);
      if (o + 2 + length > record.length) throw new Mp4Error("the 'avcC' box is cut short");
      sets.push(START_CODE, record.subarray(o + 2, o + 2 + length));
      o += 2 + length;
    }
  }
  return {
    content: 'video',
    codec: 'h264',
    codecString: `avc1.${hex(record[1]!)}${hex(record[2]!)}${hex(record[3]!)}`,
    nalLengthSize: (record[4]! & 3) + 1,
    parameterSetsAnnexB: Buffer.from(Buffer.concat(sets)),
    ...visualSize(moov, entry),
  };
}

function hevcEntry(moov: Buffer, entry: BoxHeader): VideoEntry {
  const hvcC = child(moov, entry, 'hvcC', VISUAL_FIELDS);
  if (!hvcC || hvcC.end - hvcC.contentStart < 23)
    throw new Mp4Error("an HEVC track has no usable 'hvcC' box");
  const record = moov.subarray(hvcC.contentStart, hvcC.end);
  // Parameter sets in VPS, SPS, PPS order whatever order the arrays come in (H.265 §7.4.2.4.4).
  const byType = new Map<number, Buffer[]>();
  let o = 23;
  const arrays = record[22]!;
  for (let a = 0; a < arrays && o + 3 <= record.length; a++) {
    const type = record[o]! & 0x3f;
    const count = record.readUInt16BE(o + 1);
    o += 3;
    for (let i = 0; i < count && o + 2 <= record.length; i++) {
      const length = record.readUInt16BE(o);
      if (o + 2 + length > record.length) throw new Mp4Error("the 'hvcC' box is cut short");
      const list = byType.get(type) ?? [];
      list.push(START_CODE, record.subarray(o + 2, o + 2 + length));
      byType.set(type, list);
      o += 2 + length;
    }
  }
  const sets = [HEVC_VPS, HEVC_SPS, HEVC_PPS].flatMap((t) => byType.get(t) ?? []);
  return {
    content: 'video',
    codec: 'hevc',
    codecString: hevcCodecString(record.subarray(1, 13)),
    nalLengthSize: (record[21]! & 3) + 1,
    parameterSetsAnnexB: Buffer.from(Buffer.concat(sets)),
    ...visualSize(moov, entry),
  };
}

function visualSize(moov: Buffer, entry: BoxHeader): { width: number; height: number } {
  if (entry.contentStart + 28 > entry.end) return { width: 0, height: 0 };
  return {
    width: moov.readUInt16BE(entry.contentStart + 24),
    height: moov.readUInt16BE(entry.contentStart + 26),
  };
}

/**
 * AudioSampleEntry (§12.2.3): 28 bytes, or QuickTime's sound description version 1 (16 more) or
 * 2 (36 more), then 'esds' — in a .mov often inside a 'wave' box.
 */
function aacEntry(moov: Buffer, entry: BoxHeader): AudioEntry | undefined {
  if (entry.contentStart + 28 > entry.end) throw new Mp4Error('an audio sample entry is cut short');
  const version = moov.readUInt16BE(entry.contentStart + 8);
  const skip = 28 + (version === 1 ? 16 : version === 2 ? 36 : 0);
  if (entry.contentStart + skip > entry.end) throw new Mp4Error('an audio sample entry is cut short');
  let esds = child(moov, entry, 'esds', skip);
  const wave = esds ? undefined : child(moov, entry, 'wave', skip);
  if (wave) esds = childBoxes(moov, wave.contentStart, wave.end).find((b) => b.type === 'esds');
  if (!esds) return undefined;
  const config = audioSpecificConfig(moov.subarray(esds.contentStart + 4, esds.end));
  if (!config) return undefined;
  return config;
}

/** The ES_Descriptor's DecoderConfigDescriptor (ISO 14496-1 §7.2.6.5) and its AudioSpecificConfig. */
function audioSpecificConfig(es: Buffer): AudioEntry | undefined {
  let o = 0;
  const descriptor = (tag: number): number | undefined => {
    if (es[o] !== tag) return undefined;
    o++;
    let length = 0;
    for (let i = 0; i < 4 && o < es.length; i++) {
      const byte = es[o++]!;
      length = (length << 7) | (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    return length;
  };
  if (descriptor(0x03) === undefined) return undefined;
  const flags = es[o + 2] ?? 0;
  o += 3;
  if (flags & 0x80) o += 2; // dependsOn_ES_ID
  if (flags & 0x40) o += 1 + (es[o] ?? 0); // URL
  if (flags & 0x20) o += 2; // OCR_ES_Id
  if (descriptor(0x04) === undefined) return undefined;
  const objectType = es[o];
  o += 13;
  const length = descriptor(0x05);
  if (objectType === undefined || !AAC_OBJECT_TYPES.has(objectType) || !length || o + 2 > es.length) {
    return undefined;
  }
  return aacConfig(es.subarray(o, Math.min(es.length, o + length)));
}

/** AudioSpecificConfig (ISO 14496-3 §1.6.2.1); HE-AAC's ADTS headers describe its AAC-LC core. */
function aacConfig(asc: Buffer): AudioEntry | undefined {
  let bits = 0;
  const read = (n: number): number => {
    let v = 0;
    for (let i = 0; i < n; i++, bits++) v = (v << 1) | (((asc[bits >> 3] ?? 0) >> (7 - (bits & 7))) & 1);
    return v;
  };
  let objectType = read(5);
  if (objectType === 31) objectType = 32 + read(6);
  const frequencyIndex = read(4);
  if (frequencyIndex === 15) return undefined; // an explicit rate: ADTS cannot say it
  const channelConfig = read(4);
  const core = objectType === 5 || objectType === 29 ? 2 : objectType;
  if (core < 1 || core > 4 || frequencyIndex >= ADTS_RATES.length) return undefined;
  return {
    content: 'audio',
    codec: 'aac',
    codecString: `mp4a.40.${objectType}`,
    adtsProfile: core - 1,
    frequencyIndex,
    channelConfig,
    sampleRate: ADTS_RATES[frequencyIndex]!,
    channels: channelConfig === 7 ? 8 : channelConfig,
  };
}
