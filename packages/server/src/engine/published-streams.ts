import type { Config, Location } from '@sluice/api';
import { getIn, type LiveView } from '../live/live-view.js';
import type { Logger } from '../support/log.js';
import type { SourceContext } from './sources/create-source.js';
import { type ClientFigures, StreamRuntime } from './stream-runtime.js';
import { pullUrls } from './location-urls.js';
import { publishedSpec, STREAM_DEFAULTS } from './stream-spec.js';

interface Published {
  prefix: string;
  runtime: StreamRuntime;
  /** Since when no publisher is on (ms), if none is. */
  idleSince: number | undefined;
  createdAt: number;
}

/**
 * Streams created by publishing into a location (spec 000 §3 Location: `streams`, published keyed
 * by name). They exist in the live view, not in the config: each appears under
 * lives[PREFIX].streams[PREFIX/NAME] when its publisher arrives, and goes once no publisher has
 * come back for the location's source_timeout, or when the location is deleted. A location with
 * clients_timeout publishes on demand: a stream nobody watched for that long is turned off, its
 * publisher disconnected (spec 001 §2 Location output: 'After this timeout from last client
 * ondemand stream will be turned off').
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

  get size(): number {
    return this.items.size;
  }

  entries(): IterableIterator<[string, Published]> {
    return this.items.entries();
  }

  /** The published stream `name` in location `prefix`, started and shown in the view; created if new. */
  open(prefix: string, location: Location, name: string, start = true): StreamRuntime {
    const existing = this.items.get(name);
    if (existing) return existing.runtime;
    const runtime = new StreamRuntime(publishedSpec(name, location, prefix), this.context);
    this.items.set(name, { prefix, runtime, idleSince: undefined, createdAt: Date.now() });
    // A stream pulled for a player starts once the player is let in (Engine.touch).
    if (start) runtime.start();
    if (getIn(this.view.snapshot, ['lives', prefix]) !== undefined) {
      this.view.set(['lives', prefix, 'streams', name], { name });
    }
    this.log.notice(`published stream ${name} created in location ${prefix}`);
    return runtime;
  }

  /**
   * Removes streams whose location is gone, whose publisher has not come back in time, or (with the
   * location's clients_timeout) that nobody watched for that long.
   */
  sweep(config: Config, nowMs: number, clientsOf?: (name: string) => ClientFigures): void {
    for (const [name, item] of this.items) {
      const location = config.lives?.[item.prefix];
      const waiting = item.runtime.activeSource?.waiting ?? true;
      item.idleSince = waiting ? (item.idleSince ?? nowMs) : undefined;
      const timeoutMs = item.runtime.spec.sourceTimeoutSeconds * 1000;
      const unwatched = location && clientsOf && this.unwatchedFor(item, location, clientsOf(name), nowMs);
      if (unwatched) {
        this.remove(name, item, `no clients for ${unwatched} s (clients_timeout)`);
        continue;
      }
      // A stream the location's urls pull waits for no publisher: only its clients keep it.
      const pulled = location !== undefined && pullUrls(location).length > 0;
      if (location && (pulled || item.idleSince === undefined || nowMs - item.idleSince < timeoutMs))
        continue;
      this.remove(name, item, location ? 'no publisher' : 'its location was deleted');
    }
  }

  /** Whether an on-demand location's stream has had no client for its clients_timeout. */
  /** The clients_timeout (s) when it has passed with no client, else undefined. */
  private unwatchedFor(
    item: Published,
    location: Location,
    clients: ClientFigures,
    nowMs: number,
  ): number | undefined {
    // Pulled for players (the location's urls), a stream is on demand even with no clients_timeout set.
    const timeoutSeconds =
      location.clients_timeout ??
      (pullUrls(location).length > 0 ? STREAM_DEFAULTS.clientsTimeoutSeconds : undefined);
    if (timeoutSeconds === undefined || clients.openResponses > 0) return undefined;
    // Counted from the publish when nobody came at all: an unwatched publisher is turned off too.
    const since = Math.max(clients.lastAccessAt ?? 0, item.runtime.startedAtMs ?? item.createdAt);
    return nowMs - since >= timeoutSeconds * 1000 ? timeoutSeconds : undefined;
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
