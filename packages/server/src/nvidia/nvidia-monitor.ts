import { execFile } from 'node:child_process';
import type { Config, NvidiaState } from '@sluice/api';
import { NVIDIA_SMI_ARGS, parseNvidiaSmiCsv } from './nvidia-smi-csv.js';

/** How often nvidia-smi is asked while the switch is on; it takes ~50 ms of a core per call. */
const POLL_MS = 5000;
/** nvidia-smi hangs when the driver is wedged: a call is abandoned after this. */
const CALL_TIMEOUT_MS = 4000;
export const NO_GPU = 'no NVIDIA GPU';

export interface NvidiaMonitorOptions {
  log: { notice(message: string): void };
  /** The program to run; `nvidia-smi` from PATH unless a test or a packager says otherwise. */
  command?: string;
}

/**
 * `nvidia_monitor` (spec 000 §2 Additional): while it is on, nvidia-smi is read every 5 s and the
 * server stats carry `nvidia` (the cards, or `error: 'no NVIDIA GPU'` when nvidia-smi is missing,
 * fails or lists no card). Off: nothing runs and stats carry no `nvidia`.
 */
export class NvidiaMonitor {
  private timer: NodeJS.Timeout | undefined;
  private current: NvidiaState | undefined;
  private lastProblem: string | undefined;

  constructor(private readonly options: NvidiaMonitorOptions) {}

  apply(config: Config): void {
    const on = config.nvidia_monitor === true;
    if (on === (this.timer !== undefined)) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.current = undefined;
    if (!on) return;
    this.poll();
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  /** The stats with `nvidia` added while the monitor is on (main.ts writes them each second). */
  into<T extends object>(stats: T): T & { nvidia?: NvidiaState } {
    return this.current ? { ...stats, nvidia: this.current } : stats;
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private poll(): void {
    execFile(
      this.options.command ?? 'nvidia-smi',
      NVIDIA_SMI_ARGS,
      { timeout: CALL_TIMEOUT_MS, maxBuffer: 64 * 1024 },
      (error, stdout, stderr) => {
        if (this.timer === undefined) return;
        const gpus = error ? [] : parseNvidiaSmiCsv(stdout);
        this.current = gpus.length > 0 ? { gpus } : { gpus: [], error: NO_GPU };
        // Why there is none, logged once each time it changes (missing program, driver not loaded).
        const problem = error
          ? (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'nvidia-smi is not installed'
            : (stderr || stdout || error.message).trim()
          : gpus.length === 0
            ? 'nvidia-smi lists no card'
            : undefined;
        if (problem !== this.lastProblem && problem)
          this.options.log.notice(`nvidia_monitor: ${NO_GPU}: ${problem}`);
        this.lastProblem = problem;
      },
    );
  }
}
