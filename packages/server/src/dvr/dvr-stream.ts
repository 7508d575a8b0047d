import { resolve } from 'node:path';
import type { Logger } from '../support/log.js';
import type { DvrSettings } from './dvr-settings.js';
import { streamFolder } from './layout.js';
import { inSchedule } from './schedule.js';
import { SegmentRecorder } from './segment-recorder.js';
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
