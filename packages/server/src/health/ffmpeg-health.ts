import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { envMs } from './env-ms.js';

/** Crashes in a row (exits on a signal nobody sent, with no output between) that make a loop. */
export const CRASH_LOOP_COUNT = 3;
/** How often a missing binary is looked for again while it is missing. */
const PROBE_INTERVAL_MS = envMs('SLUICE_FFMPEG_PROBE_MS', 2000);

interface Crashing {
  binary: string;
  crashes: number;
  last: string;
}

/**
 * The header notices about ffmpeg itself (spec 000 status error_* keys), fed by every Supervisor:
 * - error_ffmpeg_missing: a child could not be started at all (ENOENT, EACCES); looked for again
 *   every 2 s, so the notice goes as soon as the binary is installed, not at the next restart;
 * - error_ffmpeg_crashing: some process crashed CRASH_LOOP_COUNT times in a row (SIGSEGV, SIGABRT…:
 *   a signal the server did not send) without writing output in between; it goes once that
 *   process writes output again or is stopped (its stream removed).
 * A source that is down makes ffmpeg exit with a code, not a signal: that is the stream's error.
 */
export class FfmpegHealth {
  private readonly missing = new Map<string, string>();
  private readonly crashing = new Map<object, Crashing>();
  private probe: NodeJS.Timeout | undefined;

  spawnFailed(binary: string, error: Error): void {
    if (!isFfmpeg(binary)) return;
    this.missing.set(binary, `ffmpeg can't be started (${binary}): ${error.message}`);
    this.probe ??= setInterval(() => void this.lookAgain(), PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  spawned(binary: string): void {
    this.found(binary);
  }

  crashed(owner: object, binary: string, how: string): void {
    if (!isFfmpeg(binary)) return;
    const entry = this.crashing.get(owner) ?? { binary, crashes: 0, last: how };
    entry.crashes++;
    entry.last = how;
    this.crashing.set(owner, entry);
  }

  /** The process wrote output, or was stopped for good: its crash count starts again. */
  settled(owner: object): void {
    this.crashing.delete(owner);
  }

  notices(): Record<string, string> {
    const out: Record<string, string> = {};
    if (this.missing.size > 0) out.error_ffmpeg_missing = [...this.missing.values()].join('; ');
    const loops = [...this.crashing.values()].filter((c) => c.crashes >= CRASH_LOOP_COUNT);
    if (loops.length > 0) {
      const first = loops[0]!;
      const more = loops.length > 1 ? ` (and ${loops.length - 1} more processes)` : '';
      out.error_ffmpeg_crashing = `ffmpeg keeps crashing (${first.binary}, ${first.crashes} times in a row): ${first.last}${more}`;
    }
    return out;
  }

  private found(binary: string): void {
    this.missing.delete(binary);
    if (this.missing.size === 0 && this.probe) {
      clearInterval(this.probe);
      this.probe = undefined;
    }
  }

  private async lookAgain(): Promise<void> {
    for (const binary of [...this.missing.keys()]) if (await runnable(binary)) this.found(binary);
  }
}

/** Other children (an ssh tunnel) have their own messages. */
const isFfmpeg = (binary: string) => /ff(mpeg|probe)[^/]*$/.test(binary);

/** Whether `binary` (a path, or a name looked up in PATH as spawn does) is an executable file. */
async function runnable(binary: string): Promise<boolean> {
  const candidates =
    isAbsolute(binary) || binary.includes('/')
      ? [binary]
      : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, binary));
  for (const path of candidates) {
    if (
      await access(path, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}

/** One for the process: every Supervisor reports here, main.ts shows the notices. */
export const ffmpegHealth = new FfmpegHealth();
