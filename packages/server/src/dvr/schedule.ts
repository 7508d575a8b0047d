/** HHMM (spec 002 §3 DVR schedule: `[[FROM, TO]]` as HHMM integers) as minutes of the day. */
const minutesOf = (hhmm: number) => Math.floor(hhmm / 100) * 60 + (hhmm % 100);

/**
 * Whether a global DVR's `schedule` lets recording happen at this moment, in the server's local
 * time. Each [FROM, TO] includes the whole TO minute (the default 0 2359 is the whole day); one
 * whose TO is before its FROM runs over midnight. No ranges: always.
 */
export function inSchedule(
  schedule: readonly (readonly [number, number])[] | undefined,
  when: Date,
): boolean {
  if (!schedule || schedule.length === 0) return true;
  const now = when.getHours() * 60 + when.getMinutes();
  return schedule.some(([fromHhmm, toHhmm]) => {
    const from = minutesOf(fromHhmm);
    const to = minutesOf(toHhmm);
    return from <= to ? now >= from && now <= to : now >= from || now <= to;
  });
}
