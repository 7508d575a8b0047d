import { type ChildProcess, spawn } from 'node:child_process';
import { envMs } from '../../health/env-ms.js';
import { ffmpegHealth } from '../../health/ffmpeg-health.js';
import { LineLog } from './line-log.js';

/**
 * Supervises one child process (ffmpeg in practice), after datarhei/core's process.go: the wanted
 * state (`order`) is kept apart from the actual one (`state`), and every move between states is one
 * of these, nothing else:
 *
 *   state      event                               next       action
 *   ---------  ----------------------------------  ---------  --------------------------------------
 *   finished   start()                             starting   spawn
 *   starting   spawned                             running    arm the stale-output check
 *   starting   spawn error (binary missing)        failed     schedule a restart
 *   starting   stop()                              finishing  SIGINT to the group, arm the SIGKILL timer
 *   running    exit, order start, code 0           finished   schedule a restart (a live input ended)
 *   running    exit, order start, code ≠ 0         failed     schedule a restart
 *   running    kill(reason) / no output for stale  running    SIGKILL to the group …
 *   running    … then exit                         killed     schedule a restart
 *   running    stop()                              finishing  SIGINT to the group, arm the SIGKILL timer
 *   finishing  exit                                finished   (killed when SIGKILL was needed)
 *   finished,
 *   failed,
 *   killed     restart timer fires, order start    starting   spawn
 *   (any rest) start()                             starting   spawn now, the pending restart dropped
 *
 * Restarts back off: restartDelayMs doubles with each exit that produced no output, up to
 * maxRestartDelayMs, and returns to restartDelayMs once a child produces output again.
 * Children run detached, each in its own process group, and signals go to the whole group, so
 * nothing they start outlives them. No shell is ever involved: argv goes to the binary as is.
 */
export type ProcessState = 'finished' | 'starting' | 'running' | 'finishing' | 'failed' | 'killed';
export type ProcessOrder = 'start' | 'stop';

export interface SupervisorOptions {
  binary: string;
  args: readonly string[];
  /** Every stdout chunk, as it arrives. */
  onStdout: (chunk: Buffer) => void;
  /** Every stderr line (split on \r and \n). */
  onLine?: (line: string) => void;
  /** Sees each stderr line first; true takes it out of the log and onLine (ffmpeg -progress lines). */
  divertLine?: (line: string) => boolean;
  onStateChange?: (to: ProcessState, from: ProcessState) => void;
  /** Restart after an exit while the order is 'start' (default true). */
  restart?: boolean;
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** Kill and restart a child that wrote nothing to stdout for this long (0: never). */
  staleTimeoutMs?: number;
  /** How long SIGINT has before SIGKILL follows. */
  stopTimeoutMs?: number;
  logLines?: number;
  env?: NodeJS.ProcessEnv;
  /** Gives the child a stdin pipe (see `stdin`); otherwise it reads /dev/null. */
  withStdin?: boolean;
}

export interface ProcessStatus {
  state: ProcessState;
  order: ProcessOrder;
  pid: number | undefined;
  /** Children spawned after the first. */
  restarts: number;
  /** Why the last child ended, when it ended badly: the exit and ffmpeg's last line. */
  lastError: string | undefined;
  /** When the next restart is due (ms since epoch), if one is scheduled. */
  restartAt: number | undefined;
}

export class Supervisor {
  private stateValue: ProcessState = 'finished';
  private orderValue: ProcessOrder = 'stop';
  private child: ChildProcess | undefined;
  private spawnedCount = 0;
  private quietExits = 0;
  private producedOutput = false;
  private lastOutputAt = 0;
  private killReason: string | undefined;
  private sigkilled = false;
  private error: string | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private restartDue: number | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private stopTimer: NodeJS.Timeout | undefined;
  private exitWaiters: (() => void)[] = [];
  readonly log: LineLog;

  constructor(private readonly options: SupervisorOptions) {
    this.log = new LineLog(options.logLines ?? 200, options.onLine, undefined, options.divertLine);
  }

  get state(): ProcessState {
    return this.stateValue;
  }

  /** The child's stdin while one runs with `withStdin`. */
  get stdin(): NodeJS.WritableStream | undefined {
    return this.child?.stdin ?? undefined;
  }

  status(): ProcessStatus {
    return {
      state: this.stateValue,
      order: this.orderValue,
      pid: this.child?.pid,
      restarts: Math.max(0, this.spawnedCount - 1),
      lastError: this.error,
      restartAt: this.restartDue,
    };
  }

  start(): void {
    this.orderValue = 'start';
    if (this.child) return;
    this.cancelRestart();
    this.spawnChild();
  }

  /** Stops the child for good (no restart); resolves once it has exited. */
  stop(): Promise<void> {
    this.orderValue = 'stop';
    ffmpegHealth.settled(this);
    this.cancelRestart();
    const child = this.child;
    if (!child) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
    if (this.stateValue !== 'finishing') {
      this.setState('finishing');
      // SIGINT lets ffmpeg close its output cleanly; it exits 255 on it.
      this.signal(child, 'SIGINT');
      this.stopTimer = setTimeout(() => {
        this.sigkilled = true;
        this.signal(child, 'SIGKILL');
      }, this.options.stopTimeoutMs ?? 5000);
    }
    return exited;
  }

  /** Kills the running child at once; it is restarted if the order is still 'start'. */
  kill(reason: string): void {
    const child = this.child;
    if (!child || this.stateValue !== 'running' || this.killReason) return;
    this.killReason = reason;
    this.log.note(`killed: ${reason}`);
    this.signal(child, 'SIGKILL');
  }

  private spawnChild(): void {
    this.setState('starting');
    this.spawnedCount++;
    this.producedOutput = false;
    this.killReason = undefined;
    this.sigkilled = false;
    const child = spawn(this.options.binary, [...this.options.args], {
      detached: true,
      stdio: [this.options.withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: this.options.env ?? process.env,
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => {
      this.lastOutputAt = Date.now();
      if (!this.producedOutput) {
        this.producedOutput = true;
        this.quietExits = 0;
        ffmpegHealth.settled(this);
      }
      this.options.onStdout(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => this.log.write(chunk));
    // A child killed while we write to its stdin must not crash the server with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.once('spawn', () => {
      // Header notices (health/ffmpeg-health.ts): the binary is there after all.
      ffmpegHealth.spawned(this.options.binary);
      if (this.child !== child || this.stateValue !== 'starting') return;
      this.lastOutputAt = Date.now();
      this.setState('running');
      this.armStaleCheck(child);
    });
    child.once('error', (error) => {
      // Without a pid the child never existed: no 'close' will tell us it ended.
      if (child.pid === undefined) {
        ffmpegHealth.spawnFailed(this.options.binary, error);
        this.onExit(child, `can't run ${this.options.binary}: ${error.message}`);
      }
    });
    child.once('close', (code, signal) => this.onExit(child, describeExit(code, signal), code ?? undefined));
  }

  private onExit(child: ChildProcess, how: string, code?: number): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.clearTimers();
    this.log.flush();
    const stopping = this.orderValue === 'stop';
    let next: ProcessState;
    if (stopping) next = this.sigkilled ? 'killed' : 'finished';
    else if (this.killReason) next = 'killed';
    else next = code === 0 ? 'finished' : 'failed';
    if (!stopping) {
      const last = this.log.last;
      this.error = this.killReason ?? (last && !last.startsWith('killed:') ? `${how}: ${last}` : how);
      this.log.note(`${how}`);
      // A signal nobody here sent (SIGSEGV, SIGABRT…) is a crash: counted for the header notice.
      if (!this.killReason && how.startsWith('exited on '))
        ffmpegHealth.crashed(this, this.options.binary, this.error);
    }
    // The restart is scheduled before the state is announced, so a listener sees when it is due.
    if (!stopping && (this.options.restart ?? true)) this.scheduleRestart();
    this.setState(next);
    const waiters = this.exitWaiters;
    this.exitWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private scheduleRestart(): void {
    if (!this.producedOutput) this.quietExits++;
    const base = this.options.restartDelayMs ?? 1000;
    const max = this.options.maxRestartDelayMs ?? 30_000;
    // SLUICE_FFMPEG_RESTART_MAX_MS caps every delay: the health test sees a crash loop and its end
    // in a second instead of waiting out the 1-2-4-8 s backoff (issue 26).
    const cap = envMs('SLUICE_FFMPEG_RESTART_MAX_MS', Infinity);
    const delay = Math.min(max, cap, base * 2 ** Math.max(0, this.quietExits - 1));
    this.restartDue = Date.now() + delay;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.restartDue = undefined;
      if (this.orderValue === 'start' && !this.child) this.spawnChild();
    }, delay);
  }

  private cancelRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.restartDue = undefined;
  }

  private armStaleCheck(child: ChildProcess): void {
    const timeout = this.options.staleTimeoutMs ?? 0;
    if (timeout <= 0) return;
    this.staleTimer = setInterval(
      () => {
        if (this.child === child && Date.now() - this.lastOutputAt > timeout) {
          this.kill(`no output for ${timeout / 1000} s`);
        }
      },
      Math.max(50, Math.min(1000, timeout / 4)),
    );
  }

  private clearTimers(): void {
    if (this.staleTimer) clearInterval(this.staleTimer);
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.staleTimer = undefined;
    this.stopTimer = undefined;
  }

  /** Signals the child's whole process group (it leads it: it was spawned detached). */
  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // ESRCH: the group is already gone; the 'close' event follows or has come.
    }
  }

  private setState(next: ProcessState): void {
    const previous = this.stateValue;
    if (previous === next) return;
    this.stateValue = next;
    this.options.onStateChange?.(next, previous);
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `exited on ${signal}` : `exited with code ${code ?? 'unknown'}`;
}
