import { adScheduleProblems, type AdSchedule } from '@sluice/api';

/** Spec 002 §5: the video files the ad injector's browser lets the operator check. */
export const AD_VIDEO_EXTENSIONS = ['.mp4', '.f4v', '.mov', '.m4v', '.mp4a', '.3gp', '.3g2'] as const;

export function isAdVideo(name: string): boolean {
  const lower = name.toLowerCase();
  return AD_VIDEO_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/**
 * The HH:mm:ss mask: digits only, colons put in as they are typed ('0830' → '08:30'), at most
 * six digits. What is typed past a full time is dropped.
 */
export function maskSlotTime(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 6);
  return digits.replace(/(\d{2})(?=\d)/g, '$1:');
}

/** The form's messages by field key: `s.{schedule}.name`, `s.{i}.slots.{j}.from` … */
export function problemsByField(list: readonly AdSchedule[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of adScheduleProblems(list)) {
    const key = ['s', p.schedule, ...p.path].join('.');
    if (!out.has(key)) out.set(key, p.message);
  }
  return out;
}

/** The name a checked file is saved under: 'prefix/sub/dir/file.mp4'. */
export const adFileName = (prefix: string, subpath: string, name: string) =>
  [prefix, ...subpath.split('/').filter(Boolean), name].join('/');

/** One level up ('' at the location's root). */
export const parentOf = (subpath: string) => subpath.split('/').filter(Boolean).slice(0, -1).join('/');
