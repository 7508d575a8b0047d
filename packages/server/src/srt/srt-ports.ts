import type { Config } from '@sluice/api';
import { envMs } from '../health/env-ms.js';
import type { AskingPublishHandler } from '../ingest/rtmp/rtmp-server.js';
import type { SrtPlayDeps } from './srt-play-port.js';
import { SrtPlayPort } from './srt-play-port.js';
import { SrtPublishPort } from './srt-publish-port.js';
import { type SrtPortSpec, srtPorts } from './srt-settings.js';

interface Open {
  spec: SrtPortSpec;
  port: SrtPublishPort | SrtPlayPort;
}

const same = (a: SrtPortSpec, b: SrtPortSpec) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The SRT ports of the config's streams (`srt_publish`, `srt_play`), opened and closed as the config
 * changes: a port whose settings changed is reopened, the others are left alone.
 */
export class SrtPorts {
  private readonly open = new Map<string, Open>();
  /** Ports that could not be bound: header notices (error_listen_srt_<port>), tried again every 5 s. */
  private readonly failures = new Map<string, string>();
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: SrtPlayDeps & { publish: AskingPublishHandler }) {}

  /**
   * With `only` (an edit of these streams' fields), looks at those streams alone, unless one of
   * them gives up a port or asks for one another stream holds: the whole config decides then.
   */
  async apply(config: Config, only?: readonly string[]): Promise<void> {
    const wanted = srtPorts(config, only);
    const named = only && new Set(only);
    if (named) {
      const released = [...this.open].some(([key, item]) => named.has(item.spec.stream) && !wanted.has(key));
      const taken = [...wanted.keys()].some((key) => {
        const holder = this.open.get(key)?.spec.stream;
        return holder !== undefined && !named.has(holder);
      });
      if (released || taken) return this.apply(config);
    }
    for (const [key, item] of [...this.open]) {
      if (named && !named.has(item.spec.stream)) continue;
      const next = wanted.get(key);
      if (next && same(next, item.spec)) continue;
      this.open.delete(key);
      this.failures.delete(key);
      await item.port.stop();
    }
    for (const [key, spec] of wanted) {
      if (this.open.has(key)) continue;
      await this.openPort(key, spec);
    }
  }

  /** Header notices for SRT ports that can't be bound, like the other listeners' (error_listen_*). */
  notices(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, message] of this.failures)
      out[`error_listen_srt_${this.open.get(key)?.spec.port ?? key}`] = message;
    return out;
  }

  private async openPort(key: string, spec: SrtPortSpec): Promise<void> {
    const port =
      spec.kind === 'publish'
        ? new SrtPublishPort(spec, this.deps.publish, this.deps)
        : new SrtPlayPort(spec, this.deps);
    this.open.set(key, { spec, port });
    try {
      await port.start();
      this.failures.delete(key);
    } catch (error) {
      const message = `Can't listen on SRT port ${spec.port} (srt_${spec.kind} of stream ${spec.stream}): ${(error as Error).message}`;
      // Logged once, not at each retry.
      if (this.failures.get(key) !== message) this.deps.log.notice(message);
      this.failures.set(key, message);
      this.retryTimer ??= setTimeout(() => void this.retry(), envMs('SLUICE_SRT_PORT_RETRY_MS', 5000));
      this.retryTimer.unref();
    }
  }

  /** The failed ports opened again with the spec they have now (freed by whoever held them). */
  private async retry(): Promise<void> {
    this.retryTimer = undefined;
    for (const key of [...this.failures.keys()]) {
      const item = this.open.get(key);
      if (!item) {
        this.failures.delete(key);
        continue;
      }
      await item.port.stop().catch(() => undefined);
      if (this.open.get(key) === item) await this.openPort(key, item.spec);
    }
  }

  async close(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.failures.clear();
    const items = [...this.open.values()];
    this.open.clear();
    await Promise.all(items.map((item) => item.port.stop()));
  }
}
