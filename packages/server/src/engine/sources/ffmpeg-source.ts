import { Supervisor } from '../ffmpeg/supervisor.js';
import type { Source, SourceEvents } from './source.js';

export interface FfmpegSourceOptions {
  binary: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** A child silent this long is killed and restarted. */
  staleTimeoutMs: number;
  /** What the log calls this source (its URL, without credentials). */
  label: string;
}

/** A source read through an ffmpeg child writing MPEG-TS to stdout (remuxes and the test source). */
export class FfmpegSource implements Source {
  private readonly supervisor: Supervisor;

  constructor(options: FfmpegSourceOptions, events: SourceEvents) {
    this.supervisor = new Supervisor({
      binary: options.binary,
      args: options.args,
      env: options.env,
      staleTimeoutMs: options.staleTimeoutMs,
      restartDelayMs: 1000,
      maxRestartDelayMs: 10_000,
      logLines: 50,
      onStdout: (chunk) => events.data(chunk),
      onLine: (line) => events.log(line),
      onStateChange: (to) => {
        if (to === 'running') events.log(`ffmpeg started for ${options.label}`);
        if (
          to === 'failed' ||
          to === 'killed' ||
          (to === 'finished' && this.supervisor.status().order === 'start')
        ) {
          events.error(`${options.label}: ${this.supervisor.status().lastError ?? 'ffmpeg ended'}`);
        }
      },
    });
  }

  start(): void {
    this.supervisor.start();
  }

  stop(): Promise<void> {
    return this.supervisor.stop();
  }
}
