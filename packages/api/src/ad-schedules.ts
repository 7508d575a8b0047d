import { z } from 'zod';

/**
 * Ad schedules (spec 002 §3 "Ad schedule"): named lists of time slots (start 'HH:mm:ss' in the
 * server's local time, duration in seconds) and the VOD files ('prefix/path') played in them, each
 * with a weight. The config's top-level `ad_schedules`; a stream opts in with `ad_schedule NAME`.
 * The config schema holds the shape only; adScheduleProblems holds the rules with the spec's
 * messages, shared by the console's form and save_ad_schedules.
 */
export const adSlot = z.looseObject({ from: z.string(), duration: z.number() });
export const adFile = z.looseObject({ name: z.string(), weight: z.number() });
export const adSchedule = z.looseObject({
  name: z.string(),
  slots: z.array(adSlot),
  files: z.array(adFile),
});
export const adSchedules = z.array(adSchedule);
export type AdSlot = z.infer<typeof adSlot>;
export type AdFile = z.infer<typeof adFile>;
export type AdSchedule = z.infer<typeof adSchedule>;

/** The spec's messages (spec 002 §5), word for word, and the overlap refusal spec 002 leaves to us. */
export const AD_MESSAGES = {
  nameRequired: 'Ad schedule name is required and should have 1 character at least.',
  nameUnique: 'Ad schedule name should be unique.',
  slotFormat: 'Slot format is HH:mm:ss',
  slotUnique: 'Time slot start time should be unique',
  greaterThanZero: 'Should be greater, than 0',
  overlap: (next: string) => `Time slot overlaps the next one, which starts at ${next}`,
} as const;

/** The spec's constants (spec 002 §9 "Default new ad slot"). */
export const AD_DEFAULT_SLOT: AdSlot = { from: '00:00:00', duration: 15 };
export const AD_NEW_FILE_WEIGHT = 1;

const SLOT_FORMAT = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const DAY_SECONDS = 86_400;

export function slotSeconds(from: string): number | undefined {
  if (!SLOT_FORMAT.test(from)) return undefined;
  const [h, m, s] = from.split(':').map(Number) as [number, number, number];
  return h * 3600 + m * 60 + s;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The slot Add slot appends (spec 002 §9): the default when there is none, else one hour after the
 * last slot (hour 23 wraps to 0: "wrapping to 0 after hour 22"), its minutes shifted by 5 (by -5
 * past 54) while that start is taken.
 */
export function nextAdSlot(slots: readonly AdSlot[]): AdSlot {
  const last = slots[slots.length - 1];
  if (!last) return { ...AD_DEFAULT_SLOT };
  const [h = 0, m = 0, s = 0] = last.from.split(':').map((p) => Number(p) || 0);
  const hour = h > 22 ? 0 : h + 1;
  let minute = m;
  const taken = new Set(slots.map((x) => x.from));
  const text = () => `${two(hour)}:${two(minute)}:${two(s)}`;
  // At most 12 shifts of 5 minutes cover the hour; bounded so a full hour cannot loop.
  for (let i = 0; i < 12 && taken.has(text()); i++) minute = minute > 54 ? minute - 5 : minute + 5;
  return { from: text(), duration: AD_DEFAULT_SLOT.duration };
}

/** One problem: where (schedule index, then field path) and the message shown there. */
export interface AdScheduleProblem {
  schedule: number;
  path: (string | number)[];
  message: string;
}

/**
 * Every rule of spec 002 §5 for ad schedules, plus slots that overlap the next one (in the order of
 * the day, the last against the first of the next day). File names are checked by the server.
 */
export function adScheduleProblems(schedules: readonly AdSchedule[]): AdScheduleProblem[] {
  const problems: AdScheduleProblem[] = [];
  const names = new Map<string, number>();
  for (const s of schedules) names.set(s.name, (names.get(s.name) ?? 0) + 1);
  schedules.forEach((schedule, i) => {
    const at = (path: (string | number)[], message: string) => problems.push({ schedule: i, path, message });
    if (schedule.name.trim() === '') at(['name'], AD_MESSAGES.nameRequired);
    else if ((names.get(schedule.name) ?? 0) > 1) at(['name'], AD_MESSAGES.nameUnique);
    const starts = new Map<string, number>();
    for (const slot of schedule.slots) starts.set(slot.from, (starts.get(slot.from) ?? 0) + 1);
    const timed: { start: number; end: number; index: number }[] = [];
    schedule.slots.forEach((slot, j) => {
      const start = slotSeconds(slot.from);
      if (start === undefined) at(['slots', j, 'from'], AD_MESSAGES.slotFormat);
      else if ((starts.get(slot.from) ?? 0) > 1) at(['slots', j, 'from'], AD_MESSAGES.slotUnique);
      const durationOk = Number.isFinite(slot.duration) && slot.duration > 0;
      if (!durationOk) at(['slots', j, 'duration'], AD_MESSAGES.greaterThanZero);
      if (start !== undefined && durationOk && starts.get(slot.from) === 1)
        timed.push({ start, end: start + slot.duration, index: j });
    });
    timed.sort((a, b) => a.start - b.start);
    timed.forEach((slot, k) => {
      const next = timed[(k + 1) % timed.length];
      if (!next || next === slot) return;
      const nextStart = k + 1 < timed.length ? next.start : next.start + DAY_SECONDS;
      if (slot.end > nextStart) {
        const from = schedule.slots[next.index]?.from ?? '';
        at(['slots', slot.index, 'from'], AD_MESSAGES.overlap(from));
      }
    });
    schedule.files.forEach((file, j) => {
      if (!(Number.isFinite(file.weight) && file.weight > 0))
        at(['files', j, 'weight'], AD_MESSAGES.greaterThanZero);
    });
  });
  return problems;
}
