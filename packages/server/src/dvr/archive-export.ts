import { createHash } from 'node:crypto';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveIndex, ArchiveSegment } from './archive-index.js';
import { makeDash } from './archive-dash.js';
import { concatList, mp4ExportArgs, runOnce } from './archive-ffmpeg.js';

export interface ExportDeps {
  /** A private folder of this run (support/scratch-dir.ts): exports are written and served from it. */
  scratchDir: string;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  /** How long a finished export is kept once nobody reads it: a player's next range request reuses it. */
  lingerMs?: number;
}

/** An MP4 file, or a folder with a static DASH MPD (manifest.mpd) and its pieces under `pieceDir`. */
export type ExportFormat = { kind: 'mp4' } | { kind: 'dash'; pieceDir: string };

interface Job {
  file: Promise<{ path: string; size: number }>;
  readers: number;
  timer: NodeJS.Timeout | undefined;
}

/** An export of an hour of 2 s segments takes a few seconds; one stuck far longer is killed. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;
const LINGER_MS = 60_000;

/**
 * MP4 exports of archive ranges (archive-FROM-DURATION.mp4) and static DASH copies (.mpd), made on
 * request without re-encoding into the scratch folder and served from there with Content-Length and byte ranges. Requests for
 * the same segments share one file (a player asks again for each range it seeks to); the file is
 * removed once no response reads it and `lingerMs` passed.
 */
export class ArchiveExports {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly deps: ExportDeps) {}

  /** The MP4 of these segments (made now, or shared); call `release` when the response is over. */
  async acquire(
    index: ArchiveIndex,
    segments: readonly ArchiveSegment[],
    format: ExportFormat = { kind: 'mp4' },
  ): Promise<{ path: string; size: number; release: () => void }> {
    const key = exportKey(index.dir, segments, format);
    let job = this.jobs.get(key);
    if (!job) {
      job = { file: this.make(key, index, segments, format), readers: 0, timer: undefined };
      this.jobs.set(key, job);
      const made = job;
      // A failed export is not kept: the next request tries again.
      made.file.catch(() => this.jobs.get(key) === made && this.jobs.delete(key));
    }
    clearTimeout(job.timer);
    job.readers++;
    const taken = job;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      taken.readers--;
      if (taken.readers === 0)
        taken.timer = setTimeout(() => void this.drop(key, taken), this.deps.lingerMs ?? LINGER_MS);
    };
    try {
      return { ...(await job.file), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Removes every export (server stopping). */
  async close(): Promise<void> {
    await Promise.all([...this.jobs.entries()].map(([key, job]) => this.drop(key, job)));
  }

  private async make(
    key: string,
    index: ArchiveIndex,
    segments: readonly ArchiveSegment[],
    format: ExportFormat,
  ): Promise<{ path: string; size: number }> {
    const listPath = join(this.deps.scratchDir, `${key}.txt`);
    const ext = format.kind === 'mp4' ? '.mp4' : '';
    const partPath = join(this.deps.scratchDir, `${key}.part${ext}`);
    const path = join(this.deps.scratchDir, `${key}${ext}`);
    try {
      await writeFile(listPath, concatList(segments.map((s) => index.pathOf(s))));
      if (format.kind === 'dash')
        await makeDash(listPath, index.pathOf(segments[0]!), partPath, format.pieceDir, this.deps);
      else {
        const args = mp4ExportArgs(listPath, partPath);
        const run = await runOnce(this.deps.ffmpegPath, args, this.deps.env, EXPORT_TIMEOUT_MS);
        if (run.code !== 0) throw new Error(`ffmpeg failed (${run.code}): ${run.stderr || 'no message'}`);
      }
      // Renamed when whole: a file (or folder) under the final name is always a finished export.
      await rename(partPath, path);
      return { path, size: (await stat(path)).size };
    } catch (error) {
      await rm(partPath, { force: true, recursive: true });
      throw error;
    } finally {
      await rm(listPath, { force: true });
    }
  }

  private async drop(key: string, job: Job): Promise<void> {
    clearTimeout(job.timer);
    if (this.jobs.get(key) === job) this.jobs.delete(key);
    const file = await job.file.catch(() => undefined);
    if (file) await rm(file.path, { force: true, recursive: true });
  }
}

/** The same stream, segments and format are the same export. */
function exportKey(dir: string, segments: readonly ArchiveSegment[], format: ExportFormat): string {
  const first = segments[0]!;
  const last = segments.at(-1)!;
  const kind = format.kind === 'dash' ? `dash\0${format.pieceDir}` : 'mp4';
  const text = `${dir}\0${first.startMs}\0${last.startMs + last.durationMs}\0${segments.length}\0${kind}`;
  return createHash('sha1').update(text).digest('hex').slice(0, 20);
}
