import { box, fullBox, u64, u8 } from '../media/fmp4/mp4-box.js';
import { mediaFragment } from '../media/fmp4/media-fragment.js';
import type { Fmp4Track } from '../media/fmp4/track.js';

/**
 * The two PIFF / Smooth Streaming boxes of a fragment's traf ([MS-SSTR] §2.2.4.4, §2.2.4.5): uuid
 * boxes told apart by their 16-byte user type, as dash.js's MssFragmentProcessor reads them.
 */
const TFXD = Buffer.from('6d1d9b0542d544e680e2141daff757b2', 'hex');
const TFRF = Buffer.from('d4807ef2ca3946958e5426cb9e46a79f', 'hex');

/** A fragment's start and length, in the manifest's TimeScale (100 ns). */
export interface FragmentTime {
  t: number;
  d: number;
}

/** A uuid box with a FullBox header (version, flags) after its user type. */
function uuidFullBox(userType: Buffer, version: number, ...body: Buffer[]): Buffer {
  return box('uuid', userType, fullBox('tfxd', version, 0).subarray(8), ...body);
}

/** TfxdBox: this fragment's absolute time and duration (version 1: 64-bit fields). */
export function tfxd({ t, d }: FragmentTime): Buffer {
  return uuidFullBox(TFXD, 1, u64(t), u64(d));
}

/**
 * TfrfBox: the fragments after this one a live client may ask for next (their times and
 * durations), so it learns of new fragments without reloading the manifest. At most 255.
 */
export function tfrf(next: readonly FragmentTime[]): Buffer {
  const entries = next.slice(0, 255);
  return uuidFullBox(TFRF, 1, u8(entries.length), ...entries.flatMap((e) => [u64(e.t), u64(e.d)]));
}

/**
 * One track's fragment as Smooth Streaming serves it: moof (mfhd; traf with tfhd, tfdt, trun,
 * tfxd, tfrf) and mdat, no styp. `next`: the fragments after it that exist (tfrf).
 */
export function mssFragment(
  fragment: { track: Fmp4Track; t: number; d: number },
  sequence: number,
  next: readonly FragmentTime[],
): Buffer {
  const boxes = [tfxd(fragment), tfrf(next)];
  return mediaFragment([{ ...fragment.track, id: 1 }], sequence % 2 ** 32, {
    styp: false,
    trafBoxes: () => boxes,
  });
}
