import type { SpliceInfo } from './scte35.js';

/** What an inserter acts on: a break starting (with its length when known) or ending, and when. */
export interface Scte35Cue {
  kind: 'out' | 'in';
  eventId: number;
  /** Stream time of the splice (90 kHz, adjusted); undefined: immediately. */
  pts90k?: number;
  /** Seconds, when the cue says how long the break lasts. */
  durationS?: number;
}

/** The cue a splice_insert (or a time_signal with a segmentation start/end) carries, if any. */
export function cueOf(info: SpliceInfo): Scte35Cue | undefined {
  const c = info.command;
  if (c.type === 'splice_insert') {
    if (c.cancel) return undefined;
    return {
      kind: c.outOfNetwork ? 'out' : 'in',
      eventId: c.eventId,
      ...(c.immediate || c.pts90k === undefined ? {} : { pts90k: c.pts90k }),
      ...(c.breakDuration ? { durationS: c.breakDuration.duration90k / 90_000 } : {}),
    };
  }
  if (c.type === 'time_signal') {
    const seg = info.segmentations.find((s) => !s.cancel && s.typeId !== undefined && s.typeId >= 0x22);
    if (!seg || seg.typeId === undefined) return undefined;
    // Start types are even from 0x22 on (break, provider/distributor ad, placement opportunity).
    const start = seg.typeId % 2 === 0;
    return {
      kind: start ? 'out' : 'in',
      eventId: seg.eventId,
      ...(c.pts90k === undefined ? {} : { pts90k: c.pts90k }),
      ...(start && seg.duration90k !== undefined ? { durationS: seg.duration90k / 90_000 } : {}),
    };
  }
  return undefined;
}
