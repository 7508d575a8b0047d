/** One slot of an ad schedule (spec 002 §3): a start time of day and a length. */
export interface AdSlot {
  /** 'HH:mm:ss', the server's local time. */
  from: string;
  /** Seconds. */
  duration: number;
}

/** A slot placed on the clock: epoch milliseconds. */
export interface PlacedSlot {
  slot: AdSlot;
  startMs: number;
  endMs: number;
}

/** 'HH:mm:ss' as hours, minutes, seconds; undefined when it is not a time of day. */
export function timeOfDay(from: string): [number, number, number] | undefined {
  const match = /^(\d{2}):(\d{2}):(\d{2})$/.exec(from);
  if (!match) return undefined;
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return h < 24 && m < 60 && s < 60 ? [h, m, s] : undefined;
}

/**
 * Where `from` falls on the local calendar day `dayOffset` days from the day of `nowMs`. The date
 * is built field by field (not by adding 24 h), so a day of 23 or 25 hours (a DST change) still
 * puts the slot at its wall-clock time; a time the spring change skips comes out an hour later,
 * as the platform's Date places it.
 */
function placeOn(nowMs: number, dayOffset: number, hms: [number, number, number]): number {
  const now = new Date(nowMs);
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + dayOffset, ...hms).getTime();
}

/**
 * The slot running at `nowMs`, else the next one to start: yesterday's slot that runs over
 * midnight still counts. The duration is real seconds (a slot across a DST change lasts as long
 * as it says). Slots that are not a time of day, or last no time, are skipped.
 */
export function currentOrNextSlot(slots: readonly AdSlot[], nowMs: number): PlacedSlot | undefined {
  let best: PlacedSlot | undefined;
  for (const slot of slots) {
    const hms = timeOfDay(slot.from);
    if (!hms || !(slot.duration > 0)) continue;
    for (const dayOffset of [-1, 0, 1]) {
      const startMs = placeOn(nowMs, dayOffset, hms);
      const endMs = startMs + slot.duration * 1000;
      if (endMs <= nowMs) continue;
      if (!best || startMs < best.startMs) best = { slot, startMs, endMs };
      break;
    }
  }
  return best;
}
