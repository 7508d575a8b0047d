import { join } from 'node:path';
import type { Dvr } from '@sluice/api';

export type DiskMode = 'default' | 'keep' | 'readonly' | 'abandon' | 'migrate' | 'rescue';

export interface DiskRights {
  /** Its segments are in the archive (read back at start, served). */
  read: boolean;
  /** New segments are written to it. */
  write: boolean;
  /** Retention deletes its files (else a segment past the limits leaves the archive, its file stays). */
  delete: boolean;
}

/**
 * What each disk mode of a RAID 0 storage (spec 002 §3: default, keep, readonly, abandon, migrate,
 * rescue) lets the server do with the disk. docs/config.md says the same in words.
 */
export const DISK_MODES: Record<DiskMode, DiskRights> = {
  default: { read: true, write: true, delete: true },
  // Archive that must never be lost: written and read, never deleted.
  keep: { read: true, write: true, delete: false },
  // Read, never written nor deleted.
  readonly: { read: true, write: false, delete: false },
  // Taken out: neither read nor written nor deleted (a disk to be pulled).
  abandon: { read: false, write: false, delete: false },
  // Being emptied: read, not written, its archive deleted as it ages out.
  migrate: { read: true, write: false, delete: true },
  // Failing: what can be read is served; nothing written there, nothing deleted.
  rescue: { read: true, write: false, delete: false },
};

export interface RaidDisk {
  name: string;
  /** ROOT/DISK: the disk's mount point; missing means not mounted, and it is never created. */
  root: string;
  mode: DiskMode;
}

/** The disks of a RAID 0 storage (`raid 0;` and `disk NAME …;`), in position order; undefined without RAID. */
export function raidDisks(storage: Dvr | undefined, root: string): RaidDisk[] | undefined {
  if (storage?.raid !== 0 || !storage.disks) return undefined;
  const disks = Object.entries(storage.disks)
    .sort(([, a], [, b]) => (a.position ?? 0) - (b.position ?? 0))
    .map(([name, disk]) => ({ name, root: join(root, name), mode: (disk.mode ?? 'default') as DiskMode }));
  return disks.length > 0 ? disks : undefined;
}
