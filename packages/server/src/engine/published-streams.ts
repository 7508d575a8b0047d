import type { Config, Location } from '@sluice/api';
import { getIn, type LiveView } from '../live/live-view.js';
import type { Logger } from '../support/log.js';
import type { SourceContext } from './sources/create-source.js';
import { StreamRuntime } from './stream-runtime.js';
import { publishedSpec } from './stream-spec.js';

interface Published {
  prefix: string;
  runtime: StreamRuntime;
  /** Since when no publisher is on (ms), if none is. */
  idleSince: number | undefined;
}

/**
 * Streams created by publishing into a location (spec 000 §3 Location: `streams`, published keyed
 * by name). They exist in the live view, not in the config: each appears under
 * lives[PREFIX].streams[PREFIX/NAME] when its publisher arrives, and goes once no publisher has
 * come back for the location's source_timeout, or when the location is deleted.
 */
export class PublishedStreams {
  private readonly items = new Map<string, Published>();

  constructor(
    private readonly view: LiveView,
    private readonly context: SourceContext,
    private readonly log: Logger,
    private readonly onRemoved: (name: string) => void = () => undefined,
  ) {}

  get(name: string): StreamRuntime | undefined {
    return this.items.get(name)?.runtime;
  }

  entries(): IterableIterator<[string, Published]> {
    return this.items.entries();
  }

  /** The published stream `name` in location `prefix`, started and shown in the view; created if new. */
  open(prefix: string, location: Location, name: string): StreamRuntime {
    const existing = this.items.get(name);
    if (existing) return existing.runtime;
    const runtime = new StreamRuntime(publishedSpec(name, location), this.context);
    this.items.set(name, { prefix, runtime, idleSince: undefined });
    runtime.start();
    if (getIn(this.view.snapshot, ['lives', prefix]) !== undefined) {
      this.view.set(['lives', prefix, 'streams', name], { name });
    }
    this.log.notice(`published stream ${name} created in location ${prefix}`);
    return runtime;
  }

  /** Removes streams whose location is gone or whose publisher has not come back in time. */
  sweep(config: Config, nowMs: number): void {
    for (const [name, item] of this.items) {
      const location = config.lives?.[item.prefix];
      const waiting = item.runtime.activeSource?.waiting ?? true;
      item.idleSince = waiting ? (item.idleSince ?? nowMs) : undefined;
      const timeoutMs = item.runtime.spec.sourceTimeoutSeconds * 1000;
      if (location && (item.idleSince === undefined || nowMs - item.idleSince < timeoutMs)) continue;
      this.remove(name, item, location ? 'no publisher' : 'its location was deleted');
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.items.values()].map((item) => item.runtime.stop()));
    this.items.clear();
  }

  private remove(name: string, item: Published, reason: string): void {
    this.items.delete(name);
    void item.runtime.stop();
    if (getIn(this.view.snapshot, ['lives', item.prefix, 'streams', name]) !== undefined) {
      this.view.set(['lives', item.prefix, 'streams', name], undefined);
    }
    this.log.notice(`published stream ${name} removed: ${reason}`);
    this.onRemoved(name);
  }
}
