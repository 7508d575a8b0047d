import type { PushStats } from '@sluice/api';
import type { PacketBus } from '../media/packet-bus.js';
import { pushArgs, pushFormat } from './ffmpeg/output-args.js';
import { Supervisor } from './ffmpeg/supervisor.js';

export interface PushContext {
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

interface Push {
  url: string;
  bus: PacketBus;
  remux: Supervisor | undefined;
  unsubscribe: () => void;
  bytes: number;
  startedAt: number | undefined;
}

/**
 * A stream's pushes (`push URL;`): each URL gets an ffmpeg fed from the packet bus that copies the
 * stream there (RTMP as FLV, UDP and SRT as MPEG-TS), restarted with a growing delay when it fails,
 * each new attempt starting at a keyframe.
 */
export class StreamPushes {
  private readonly items = new Map<string, Push>();

  constructor(
    private readonly context: PushContext,
    private readonly log: (line: string) => void,
  ) {}

  /** Runs exactly these pushes on this bus (none without a bus). */
  sync(urls: readonly string[], bus: PacketBus | undefined): void {
    const wanted = new Set(bus ? urls : []);
    for (const [url, push] of this.items) if (!wanted.has(url) || push.bus !== bus) this.stopOne(url);
    for (const url of wanted) if (!this.items.has(url)) this.start(url, bus!);
  }

  stats(): PushStats[] {
    return [...this.items.values()].map((push) => {
      const out: PushStats = { url: push.url, status: 'unsupported', bytes: push.bytes, retries: 0 };
      if (!push.remux)
        return { ...out, error: `can't push to ${push.url}: use rtmp(s)://, udp:// or srt://` };
      const status = push.remux.status();
      out.retries = status.restarts;
      out.status =
        status.state === 'running' ? 'running' : status.state === 'starting' ? 'starting' : 'retrying';
      if (status.lastError) out.error = status.lastError;
      if (push.startedAt !== undefined) out.started_at = push.startedAt;
      return out;
    });
  }

  async stop(): Promise<void> {
    await Promise.all([...this.items.keys()].map((url) => this.stopOne(url)));
  }

  private start(url: string, bus: PacketBus): void {
    const push: Push = {
      url,
      bus,
      remux: undefined,
      unsubscribe: () => undefined,
      bytes: 0,
      startedAt: undefined,
    };
    this.items.set(url, push);
    if (!pushFormat(url)) return;
    const remux = new Supervisor({
      binary: this.context.ffmpegPath,
      args: pushArgs(url),
      env: this.context.env,
      withStdin: true,
      restartDelayMs: 1000,
      maxRestartDelayMs: 30_000,
      logLines: 20,
      onStdout: () => undefined,
      onLine: (line) => this.log(`push ${url}: ${line}`),
      onStateChange: (to) => {
        if (to !== 'running') return;
        push.startedAt = Date.now();
        // Each attempt starts with the tables and the open segment's keyframe.
        for (const part of bus.segmenter.liveStart()) write(part);
      },
    });
    const write = (chunk: Buffer) => {
      if (remux.state !== 'running' || !remux.stdin) return;
      remux.stdin.write(chunk);
      push.bytes += chunk.length;
    };
    push.remux = remux;
    push.unsubscribe = bus.subscribe(write);
    remux.start();
  }

  private async stopOne(url: string): Promise<void> {
    const push = this.items.get(url);
    if (!push) return;
    this.items.delete(url);
    push.unsubscribe();
    push.remux?.stdin?.end();
    await push.remux?.stop();
  }
}
