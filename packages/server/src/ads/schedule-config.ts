import { adScheduleProblems, type AdSchedule, type Config } from '@sluice/api';
import { ConfigRejected } from '../config/errors.js';

/** Where a problem is, as an operator reads it: `schedule "morning", slot 2 (From)`. */
export function placeOf(schedule: AdSchedule | undefined, index: number, path: (string | number)[]): string {
  const who = schedule?.name ? `schedule ${JSON.stringify(schedule.name)}` : `schedule ${index + 1}`;
  const [list, at, field] = path;
  if (list === 'slots') return `${who}, slot ${Number(at) + 1} (${field === 'from' ? 'From' : 'Duration'})`;
  if (list === 'files') return `${who}, file ${Number(at) + 1} (Weight)`;
  return `${who} (Schedule name)`;
}

/** The first rule of spec 002 §5 (and the overlap rule) the list breaks, placed; undefined when none. */
export function adScheduleRefusal(list: readonly AdSchedule[]): string | undefined {
  const problem = adScheduleProblems(list)[0];
  return problem && `${placeOf(list[problem.schedule], problem.schedule, problem.path)}: ${problem.message}`;
}

/**
 * The same rules for every other way in (modify_config, save_raw_config, an import): a schedule
 * the console would refuse is refused there too, and nothing changes. Files are not looked up
 * here: a folder may be unmounted for a while, and the inserter skips (and logs) a missing file.
 */
export function refuseBadAdSchedules(config: Config): void {
  const refusal = config.ad_schedules && adScheduleRefusal(config.ad_schedules);
  if (refusal) throw new ConfigRejected(`${refusal}. Nothing was changed.`);
}
