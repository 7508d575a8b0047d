import { resolve } from 'node:path';
import type { Logger } from '../support/log.js';
import { DISK_MODES } from './disk-modes.js';
import { DiskPlacement } from './disk-placement.js';
import type { DvrSettings } from './dvr-settings.js';
import { streamFolder } from './layout.js';
import { inSchedule } from './schedule.js';
import { RETRY_AFTER_FAILURE_MS, SegmentRecorder } from './segment-recorder.js';
import type { StreamArchive } from './stream-archive.js';

/** One stream with DVR, as the service keeps it. */
export interface DvrStream {
  settings: DvrSettings;
  /** ROOT/NAME; undefined when the name would leave the root (then nothing is read or written). */
  dir: string | undefined;
  /** Undefined until the folder was read back. */
  archive: StreamArchive | undefined;
  loading: Promise<void> | undefined;
  /** Why the archive can't be written or read, for the stream's stats. */
  error: string | undefined;
  /** Writes the stream's segments once the archive was read back. */
  recorder: SegmentRecorder | undefined;
  /** The last copy failure logged (said once, not per segment). */
  copyError?: string;
  /** A retention pass of this stream is running (one at a time). */
  retaining: Promise<unknown> | undefined;
  /** RAID 0: which disk the next segment goes to, and which disks failed lately. */
  placement?: DiskPlacement | undefined;
  /** RAID 0: whether retention may delete files on this disk (its mode). */
  deletable?: ((disk: number) => boolean) | undefined;
}

/** Where a stream's archive is read from and written to. */
export interface StreamFolders {
  /** ROOT/NAME, or ROOT/DISK/NAME of each disk read (RAID 0): the index's folders. */
  dirs: string[];
  placement?: DiskPlacement;
  deletable?: (disk: number) => boolean;
}

/** The folders of stream `name` under its settings; a string says why there are none. */
export function foldersOf(name: string, settings: DvrSettings): StreamFolders | string {
  if (!settings.disks) {
    const dir = streamFolder(settings.root, name);
    return dir ? { dirs: [dir] } : `stream name ${name} can't be a folder under ${settings.root}`;
  }
  // Disks neither read nor written (abandon) are not in the index at all.
  const disks = settings.disks.filter((d) => DISK_MODES[d.mode].read);
  const dirs: string[] = [];
  for (const disk of disks) {
    const dir = streamFolder(disk.root, name);
    if (!dir) return `stream name ${name} can't be a folder under ${disk.root}`;
    dirs.push(dir);
  }
  if (dirs.length === 0) return `no disk of ${settings.root} can be read (every disk is abandoned)`;
  const writable = disks
    .map((d, disk) => ({ dir: dirs[disk]!, disk, mountPoint: d.root, mode: d.mode }))
    .filter((t) => DISK_MODES[t.mode].write);
  return {
    dirs,
    placement: new DiskPlacement(() => writable, settings.activeDisks, RETRY_AFTER_FAILURE_MS),
    deletable: (disk) => DISK_MODES[disks[disk]?.mode ?? 'default'].delete,
  };
}

export interface RecorderHooks {
  log: Logger;
  /** A write failed (message) or works again (undefined). */
  writeFailed: (message: string | undefined) => void;
  /** A segment landed: the limits are checked. */
  written: () => void;
}

/**
 * The recorder of a stream whose archive was read back: segments go into its archive, under the
 * global storage's schedule (server local time) and copy root as they are at each segment.
 */
export function recorderFor(
  name: string,
  stream: DvrStream,
  dir: string,
  archive: StreamArchive,
  hooks: RecorderHooks,
): SegmentRecorder {
  return new SegmentRecorder({
    dir,
    placement: stream.placement,
    append: (segment) => {
      const added = archive.append(segment);
      if (stream.error !== undefined) hooks.writeFailed(undefined);
      hooks.written();
      return added;
    },
    archiveEndMs: () => archive.index.endMs,
    onError: (message) => hooks.writeFailed(message),
    recording: (nowMs) => inSchedule(stream.settings.storage?.schedule, new Date(nowMs)),
    copyDir: () => {
      const copy = stream.settings.storage?.copy;
      return copy ? streamFolder(resolve(copy), name) : undefined;
    },
    onCopyError: (message) => {
      if (message === stream.copyError) return;
      stream.copyError = message;
      hooks.log.error(`dvr ${name}: copy: ${message}`);
    },
  });
}
