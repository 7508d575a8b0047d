import { box, fourCc, fullBox, i32, u32, u64 } from './mp4-box.js';
import type { Fmp4Track } from './track.js';

/** sample_flags (ISO 14496-12 §8.8.3.1): depends on no other / depends on others and is not sync. */
const SYNC_FLAGS = 0x02000000;
const NON_SYNC_FLAGS = 0x01010000;
/** tfhd: base offsets count from the moof (CMAF requires it, §7.5.16). */
const DEFAULT_BASE_IS_MOOF = 0x020000;
/** trun: data-offset, sample duration, size, flags present; composition offsets for video. */
const TRUN_FLAGS = 0x000701;
const TRUN_COMPOSITION = 0x000800;

/** What another fragment form adds: Smooth Streaming (mss/) has no styp and more boxes in a traf. */
export interface FragmentForm {
  /** Starts with a styp (CMAF); true unless false. */
  styp?: boolean;
  /** Boxes written at the end of a track's traf (sizes that do not depend on data offsets). */
  trafBoxes?: (track: Fmp4Track) => Buffer[];
}

/**
 * A CMAF fragment (ISO 23000-19 §7.3.2.3): styp, moof with one traf per track, then one mdat
 * holding each track's samples in turn. `sequence` is mfhd's sequence_number.
 */
export function mediaFragment(
  tracks: readonly Fmp4Track[],
  sequence: number,
  form: FragmentForm = {},
): Buffer {
  const styp = form.styp === false ? [] : [box('styp', fourCc('msdh'), u32(0), fourCc('msdh', 'msix'))];
  // The moof's size does not depend on the offsets written in it: measure with zeros, then write.
  const probe = moof(
    tracks,
    sequence,
    tracks.map(() => 0),
    form,
  );
  const offsets: number[] = [];
  let at = probe.length + 8;
  for (const t of tracks) {
    offsets.push(at);
    at += t.samples.reduce((n, s) => n + s.size, 0);
  }
  const data = tracks.flatMap((t) => t.samples.flatMap((s) => s.parts));
  return Buffer.concat([...styp, moof(tracks, sequence, offsets, form), box('mdat', ...data)]);
}

function moof(
  tracks: readonly Fmp4Track[],
  sequence: number,
  dataOffsets: readonly number[],
  form: FragmentForm,
): Buffer {
  const mfhd = fullBox('mfhd', 0, 0, u32(sequence));
  return box('moof', mfhd, ...tracks.map((t, i) => traf(t, dataOffsets[i]!, form.trafBoxes?.(t) ?? [])));
}

function traf(t: Fmp4Track, dataOffset: number, extra: readonly Buffer[]): Buffer {
  const withOffsets = t.kind === 'video';
  const perSample = t.samples.map((s) =>
    Buffer.concat([
      u32(s.duration, s.size, s.sync ? SYNC_FLAGS : NON_SYNC_FLAGS),
      ...(withOffsets ? [i32(s.compositionOffset)] : []),
    ]),
  );
  // Version 1: composition offsets are signed, as B-frame streams need when DTS runs ahead of PTS.
  const trun = fullBox(
    'trun',
    1,
    TRUN_FLAGS | (withOffsets ? TRUN_COMPOSITION : 0),
    u32(t.samples.length),
    i32(dataOffset),
    ...perSample,
  );
  return box(
    'traf',
    fullBox('tfhd', 0, DEFAULT_BASE_IS_MOOF, u32(t.id)),
    fullBox('tfdt', 1, 0, u64(t.baseDecodeTime)),
    trun,
    ...extra,
  );
}
