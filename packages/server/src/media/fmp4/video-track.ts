import { H264_PPS, H264_SPS, HEVC_PPS, HEVC_SPS, HEVC_VPS, parameterSetId } from '../h26x-nal.js';
import { tsDiff } from '../ts-packet.js';
import { VideoProbe } from '../video-probe.js';
import { lengthPrefixed, nalUnits } from './annexb.js';
import { avcConfig, type VideoConfig } from './avc-config.js';
import { hevcConfig } from './hevc-config.js';
import { box, u16, u32 } from './mp4-box.js';
import type { Pes } from './ts-elementary.js';
import type { Fmp4Sample, Fmp4Track } from './track.js';

/** NAL types left out of samples: access unit delimiters and filler (MP4 has no use for them). */
const DROPPED = { h264: new Set([9, 12]), hevc: new Set([35, 38]) };
const PARAMETER_SETS = { h264: [H264_SPS, H264_PPS], hevc: [HEVC_VPS, HEVC_SPS, HEVC_PPS] };
/** A frame's length when a segment holds one frame (25 fps): nothing to measure it against. */
const FALLBACK_DURATION_90K = 3600;

const nalType = (codec: 'h264' | 'hevc', nal: Buffer) =>
  codec === 'h264' ? nal[0]! & 0x1f : (nal[0]! >> 1) & 0x3f;

/**
 * The video track of a segment: one sample per PES (an access unit, as TS muxers write them) on the
 * 90 kHz TS clock. Keyframes are decided as the segmenter decides them (VideoProbe), so the sample
 * a segment starts with is a sync sample. Parameter sets go to the init's avcC/hvcC and are dropped
 * from samples where they repeat one there; a set that differs (a change mid-segment) stays in-band.
 * `knownSets`: parameter sets from before the segment, for one that carries none. Undefined when no
 * SPS/PPS (VPS/SPS/PPS) is at hand or no frame has a timestamp.
 */
export function videoTrack(
  codec: 'h264' | 'hevc',
  pesList: readonly Pes[],
  id: number,
  start90k: (dts: number) => number,
  knownSets: readonly Buffer[] = [],
): { track: Fmp4Track; parameterSets: Buffer[] } | undefined {
  const keyframes: boolean[] = [];
  const probe = new VideoProbe(codec, (unit) => keyframes.push(unit.keyframe));
  for (const pes of pesList) probe.begin(pes.data, pes.randomAccess);
  probe.begin(Buffer.alloc(0)); // decides the last access unit
  const units = pesList.map((pes) => nalUnits(pes.data));
  const sets = firstSets(codec, units.flat());
  // A segment cut inside a long GOP (the segmenter keeps EXTINF within the target) has no
  // parameter sets of its own: it decodes with those that came before.
  const known = firstSets(codec, knownSets);
  for (const [type, list] of sets) if (list.length === 0) list.push(...known.get(type)!);
  const config =
    codec === 'h264'
      ? avcConfig(sets.get(H264_SPS)!, sets.get(H264_PPS)!)
      : hevcConfig({ vps: sets.get(HEVC_VPS)!, sps: sets.get(HEVC_SPS)!, pps: sets.get(HEVC_PPS)! });
  if (!config) return undefined;
  const inInit = [...sets.values()].flat();
  const timed: { dts: number; pts: number; nals: Buffer[]; sync: boolean }[] = [];
  let lastDts: number | undefined;
  pesList.forEach((pes, i) => {
    const kept = units[i]!.filter(
      (nal) => !DROPPED[codec].has(nalType(codec, nal)) && !inInit.some((set) => set.equals(nal)),
    );
    const dts = pes.dts ?? lastDts;
    // A PES of parameter sets alone (put before a keyframe by the segmenter) leaves no sample.
    if (kept.length === 0 || dts === undefined) return;
    lastDts = dts;
    const at = start90k(dts);
    timed.push({ dts: at, pts: at + tsDiff(pes.pts ?? dts, dts), nals: kept, sync: keyframes[i] ?? false });
  });
  if (timed.length === 0) return undefined;
  const samples: Fmp4Sample[] = timed.map((t, i) => {
    const parts = lengthPrefixed(t.nals);
    const next = timed[i + 1]?.dts;
    const previous = i > 0 ? t.dts - timed[i - 1]!.dts : FALLBACK_DURATION_90K;
    // The last frame lasts as long as the one before it: the next segment's first DTS is not here.
    const duration = Math.max(0, next !== undefined ? next - t.dts : previous);
    const size = parts.reduce((n, p) => n + p.length, 0);
    return { parts, size, duration, compositionOffset: t.pts - t.dts, sync: t.sync };
  });
  const track: Fmp4Track = {
    id,
    kind: 'video',
    timescale: 90_000,
    codec: config.codec,
    sampleEntry: visualSampleEntry(config),
    width: config.width,
    height: config.height,
    baseDecodeTime: timed[0]!.dts,
    samples,
  };
  return { track, parameterSets: inInit };
}

/** Every video parameter set of a segment's PES packets, first of each type and id, in type order. */
export function parameterSetsOf(codec: 'h264' | 'hevc', pesList: readonly Pes[]): Buffer[] {
  return [
    ...firstSets(
      codec,
      pesList.flatMap((pes) => nalUnits(pes.data)),
    ).values(),
  ].flat();
}

/** The first parameter set of each type and id: what the first picture after them decodes with. */
function firstSets(codec: 'h264' | 'hevc', nals: readonly Buffer[]): Map<number, Buffer[]> {
  const sets = new Map<number, Buffer[]>(PARAMETER_SETS[codec].map((t) => [t, []]));
  const ids = new Set<string>();
  for (const nal of nals) {
    const type = nalType(codec, nal);
    const key = `${type}:${parameterSetId(type, nal)}`;
    if (!sets.has(type) || ids.has(key)) continue;
    ids.add(key);
    sets.get(type)!.push(nal);
  }
  return sets;
}

/** VisualSampleEntry (ISO 14496-12 §12.1.3) around the decoder configuration. */
function visualSampleEntry(config: VideoConfig): Buffer {
  return box(
    config.sampleEntryType,
    Buffer.alloc(6),
    u16(1), // data_reference_index
    Buffer.alloc(16), // pre_defined, reserved
    u16(config.width, config.height),
    u32(0x00480000, 0x00480000, 0), // 72 dpi, reserved
    u16(1), // frame_count
    Buffer.alloc(32), // compressorname
    u16(0x0018, 0xffff), // depth 24, pre_defined -1
    config.configBox,
  );
}
