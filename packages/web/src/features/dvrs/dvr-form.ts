import { diskModes, type Dvr } from '@sluice/api';

/**
 * The DVR storage page's edits (spec 002 §2, §3 "DVR", §9), as pure functions: each returns a new
 * DVR and leaves its input alone. A field set to empty is removed, so the file keeps only what the
 * operator set.
 */

/** Spec 002 §4, §9: a typed name is applied once it has been valid for this long. */
export const DVR_NAME_DEBOUNCE_MS = 300;

/** Spec 002 §9: a new schedule range covers the whole day, 0 to 2359 (00:00 to 23:59). */
export const DEFAULT_SCHEDULE_RANGE: readonly [number, number] = [0, 2359];

/** Spec 002 §3, §9: '' is the default mode (none written). */
export const DISK_MODES = ['', ...diskModes] as const;
type StoredMode = (typeof diskModes)[number];
export type DiskMode = StoredMode | '';
type Modes = Record<string, StoredMode | undefined>;

type Disks = NonNullable<Dvr['disks']>;

/** HHMM as the 'HH:MM' of a time input: 830 → '08:30'. */
export function formatHhmm(time: number): string {
  const hours = Math.floor(time / 100);
  const minutes = time % 100;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** 'HH:MM' as HHMM, or undefined for text that is not a time of day. */
export function parseHhmm(text: string): number | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours < 24 && minutes < 60 ? hours * 100 + minutes : undefined;
}

/** The DVR with `key` set, or removed when `value` is undefined or ''. */
export function withField<K extends keyof Dvr>(dvr: Dvr, key: K, value: Dvr[K] | undefined): Dvr {
  const out: Dvr = { ...dvr };
  if (value === undefined || value === '') delete out[key];
  else out[key] = value;
  return out;
}

/** RAID 0 on writes raid 0 (spec 002 §3: "0 means RAID 0"); off removes it and the disks to write. */
export function withRaid0(dvr: Dvr, on: boolean): Dvr {
  return on ? { ...dvr, raid: 0 } : withField(withField(dvr, 'raid', undefined), 'active', undefined);
}

/** Disk names in list order: by position, then name. */
export const orderedDisks = (disks: Disks | undefined): string[] =>
  Object.keys(disks ?? {}).sort(
    (a, b) => (disks?.[a]?.position ?? 0) - (disks?.[b]?.position ?? 0) || a.localeCompare(b),
  );

/** The DVR with its disks replaced by `names` in that order, keeping each disk's mode. */
function withDiskList(dvr: Dvr, names: readonly string[], modes: Modes): Dvr {
  if (names.length === 0) return withField(withField(dvr, 'disks', undefined), 'active', undefined);
  const disks: Disks = {};
  names.forEach((name, position) => {
    const mode = modes[name];
    disks[name] = mode ? { position, mode } : { position };
  });
  // Disks to write is 1 to the count of disks (spec 002 §5): fewer disks lower it.
  const active = dvr.active !== undefined ? Math.min(dvr.active, names.length) : undefined;
  return withField({ ...dvr, disks }, 'active', active);
}

const modesOf = (disks: Disks | undefined): Modes =>
  Object.fromEntries(Object.entries(disks ?? {}).map(([name, disk]) => [name, disk.mode]));

/** A new disk at the end, named disk1, disk2, … the first not taken. */
export function withDiskAdded(dvr: Dvr): Dvr {
  const names = orderedDisks(dvr.disks);
  let n = 1;
  while (names.includes(`disk${n}`)) n++;
  return withDiskList(dvr, [...names, `disk${n}`], modesOf(dvr.disks));
}

export function withDiskRemoved(dvr: Dvr, name: string): Dvr {
  const names = orderedDisks(dvr.disks).filter((n) => n !== name);
  return withDiskList(dvr, names, modesOf(dvr.disks));
}

/** A renamed disk keeps its place and mode; an empty name or another disk's name is refused. */
export function withDiskRenamed(dvr: Dvr, old: string, typed: string): Dvr {
  const name = typed.trim();
  const names = orderedDisks(dvr.disks);
  if (name === '' || name === old || names.includes(name)) return dvr;
  const modes = modesOf(dvr.disks);
  modes[name] = modes[old];
  return withDiskList(
    dvr,
    names.map((n) => (n === old ? name : n)),
    modes,
  );
}

export function withDiskMode(dvr: Dvr, name: string, mode: DiskMode): Dvr {
  const modes = { ...modesOf(dvr.disks), [name]: mode || undefined };
  return withDiskList(dvr, orderedDisks(dvr.disks), modes);
}

/** A new DVR's name: dvr1, dvr2, … the first not taken. */
export function newDvrName(names: readonly string[]): string {
  let n = 1;
  while (names.includes(`dvr${n}`)) n++;
  return `dvr${n}`;
}

/** The position after the last one (list order is kept in `position`). */
export const nextPosition = (dvrs: Record<string, Dvr>): number =>
  Object.values(dvrs).reduce((max, d) => Math.max(max, (d.position ?? -1) + 1), 0);

/** DVRs in list order: by position, then name. */
export const orderedNames = (dvrs: Record<string, Dvr>): string[] =>
  Object.keys(dvrs).sort((a, b) => (dvrs[a]?.position ?? 0) - (dvrs[b]?.position ?? 0) || a.localeCompare(b));
