import type { Config } from '@sluice/api';
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
      await item.port.stop();
    }
    for (const [key, spec] of wanted) {
      if (this.open.has(key)) continue;
      const port =
        spec.kind === 'publish'
          ? new SrtPublishPort(spec, this.deps.publish, this.deps)
          : new SrtPlayPort(spec, this.deps);
      this.open.set(key, { spec, port });
      try {
        await port.start();
      } catch (error) {
        this.deps.log.notice(
          `srt ${spec.kind} ${spec.stream}: can't open port ${spec.port}: ${(error as Error).message}`,
        );
      }
    }
  }

  async close(): Promise<void> {
    const items = [...this.open.values()];
    this.open.clear();
    await Promise.all(items.map((item) => item.port.stop()));
  }
}
