import type { Config, MediaInfo, Stream, StreamStats } from '@sluice/api';
import type { PublishRequest } from '../ingest/rtmp/rtmp-server.js';
import type { LiveView } from '../live/live-view.js';
import type { Logger } from '../support/log.js';
import { routePublish } from './publish-route.js';
import type { PublishAnswer } from './publish-slots.js';
import { PublishedStreams } from './published-streams.js';
import { MAX_PULLED_STREAMS, pullLocation } from './location-urls.js';
import type { SourceContext } from './sources/create-source.js';
import { statsWrites, type ViewWrite } from './stats-writer.js';
import { type ClientFigures, StreamRuntime } from './stream-runtime.js';
import { reconcile, restartKey, streamSpec, type StreamSpec } from './stream-spec.js';

/** What delivery knows about clients, per stream and in total. */
export interface ClientCounter {
  figures(stream: string, nowMs: number): ClientFigures;
  totalClients(): number;
  outBytesPerSecond(nowMs: number): number;
}

export interface EngineDeps {
  view: LiveView;
  log: Logger;
  sources: SourceContext;
  clients: ClientCounter;
  /** How often stats are measured and written (ms). */
  statsEveryMs?: number;
  /** Each stream's stats as measured, once per tick (the traffic history samples them). */
  onStats?: (name: string, stats: StreamStats, nowMs: number) => void;
  /** Figures measured outside the engine (DVR) that go into a stream's stats, written with the rest. */
  moreStats?: (name: string, nowMs: number) => Partial<StreamStats> | undefined;
  /**
   * A stream is gone (removed from the config, its publisher gone for source_timeout, no longer
   * mirrored): what is kept per stream elsewhere (client totals, traffic history) is dropped with it.
   */
  onRemoved?: (name: string) => void;
  /**
   * The spec a configured stream runs as, when something besides its config decides part of it
   * (cluster ingest: the sources on one server, a pull from it on the others; cluster/ingest/).
   */
  specOf?: (name: string, stream: Stream) => StreamSpec;
}

export interface Traffic {
  inputKbit: number;
  outputKbit: number;
  clients: number;
  openedFiles: number;
}

/**
 * The running set of streams, kept equal to the config: apply() compares what runs with what is
 * configured and starts, stops or restarts only what changed. Each stream's changes run one after
 * another, so a quick second edit never races the first.
 */
export class Engine {
  private readonly streams = new Map<string, StreamRuntime>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly ticker: NodeJS.Timeout;
  private readonly published: PublishedStreams;
  /** Streams whose stats need no look each second (see tick). */
  private readonly quiet = new WeakSet<StreamRuntime>();
  /** Streams that are not in the config (mirrored from an origin, cluster/), with where their stats go in the view. */
  private readonly external = new Map<string, { runtime: StreamRuntime; viewPath: readonly string[] }>();
  private config: Config = {};

  constructor(private readonly deps: EngineDeps) {
    this.published = new PublishedStreams(deps.view, deps.sources, deps.log, (name) =>
      deps.onRemoved?.(name),
    );
    this.ticker = setInterval(() => this.tick(), deps.statsEveryMs ?? 1000);
  }

  /** Follows the config; `names`, when given, are the only streams the edit changed (nothing added or removed). */
  apply(config: Config, names?: readonly string[]): void {
    const before = this.config.streams ?? {};
    this.config = config;
    // Only streams whose config object changed can need an action: the store keeps the objects of
    // untouched streams, so an edit of one stream among 20,000 reconciles one stream.
    const after = config.streams ?? {};
    const running = new Map<string, StreamSpec>();
    const desired = new Map<string, StreamSpec>();
    const consider = (name: string) => {
      const runtime = this.streams.get(name);
      if (runtime) running.set(name, runtime.spec);
      const stream = after[name];
      if (stream) desired.set(name, this.deps.specOf?.(name, stream) ?? streamSpec(name, stream));
    };
    if (names) for (const name of names) consider(name);
    else {
      for (const name in before) if (!(name in after)) consider(name);
      for (const name in after) if (after[name] !== before[name] || !this.streams.has(name)) consider(name);
    }
    for (const action of reconcile(running, desired)) {
      if (action.kind === 'remove') {
        const runtime = this.streams.get(action.name)!;
        this.streams.delete(action.name);
        this.enqueue(action.name, () => runtime.stop());
        this.deps.onRemoved?.(action.name);
        continue;
      }
      const { spec } = action;
      if (action.kind === 'create') {
        const runtime = new StreamRuntime(spec, this.deps.sources);
        this.streams.set(spec.name, runtime);
        this.enqueue(spec.name, async () => this.settle(runtime));
        continue;
      }
      const runtime = this.streams.get(spec.name)!;
      const restart = action.kind === 'restart' && runtime.running;
      runtime.spec = spec;
      this.enqueue(spec.name, async () => {
        if (restart) {
          this.deps.log.notice(`stream ${spec.name}: config changed, restarting`);
          await runtime.stop();
        }
        await this.settle(runtime, restart);
      });
    }
  }

  /** What specOf answers for these configured streams changed: they are reconciled again. */
  reconsider(names: readonly string[]): void {
    this.apply(this.config, names);
  }

  /** A configured stream, or one published into a location. */
  get(name: string): StreamRuntime | undefined {
    return this.streams.get(name) ?? this.published.get(name) ?? this.external.get(name)?.runtime;
  }

  /**
   * Adds, changes or (spec undefined) removes a stream that is not in the config, such as one
   * mirrored from an origin; its stats are written under `viewPath` in the live view. It runs by
   * the same rules as a configured one (static, or on demand); a configured stream of the same
   * name is found first.
   */
  setExternal(name: string, spec: StreamSpec | undefined, viewPath: readonly string[] = []): void {
    const item = this.external.get(name);
    if (!spec) {
      if (!item) return;
      this.external.delete(name);
      this.enqueue(name, () => item.runtime.stop());
      this.deps.onRemoved?.(name);
      return;
    }
    if (!item) {
      const runtime = new StreamRuntime(spec, this.deps.sources);
      this.external.set(name, { runtime, viewPath });
      this.enqueue(name, async () => this.settle(runtime));
      return;
    }
    item.viewPath = viewPath;
    const { runtime } = item;
    if (JSON.stringify(runtime.spec) === JSON.stringify(spec)) return;
    const restart = restartKey(runtime.spec) !== restartKey(spec) && runtime.running;
    runtime.spec = spec;
    this.enqueue(name, async () => {
      if (restart) await runtime.stop();
      await this.settle(runtime, restart);
    });
  }

  /** Every stream the engine holds: configured ones, then published ones. */
  *runtimes(): IterableIterator<StreamRuntime> {
    yield* this.streams.values();
    for (const [, { runtime }] of this.published.entries()) yield runtime;
    for (const { runtime } of this.external.values()) yield runtime;
  }

  /**
   * Why a publish would be refused before any work (no slot taken, no stream created, no process):
   * routing, and the publish password of the stream or location published into.
   */
  publishRefusal(request: PublishRequest): string | undefined {
    const target = routePublish(this.config, request.app, request.name);
    if ('refused' in target) return target.refused;
    const password =
      target.kind === 'stream'
        ? this.config.streams?.[target.name]?.password
        : this.config.lives?.[target.prefix]?.password;
    // The same words as the stream's publish slot says them (engine/sources/publish-source.ts).
    if (password && request.query.password !== password) return 'wrong or missing password';
    return undefined;
  }

  /** An RTMP publisher arrived: hands it to the slot of the stream it publishes into (spec 000 §4 Publishing). */
  acceptPublish(request: PublishRequest): PublishAnswer {
    // Routing, names, except and the password first: a refused publisher creates no stream.
    const refused = this.publishRefusal(request);
    if (refused) return { refused };
    const target = routePublish(this.config, request.app, request.name);
    if ('refused' in target) return target;
    const runtime =
      target.kind === 'stream'
        ? this.touch(target.name)
        : this.published.open(target.prefix, this.config.lives![target.prefix]!, target.name);
    const slot = runtime && this.deps.sources.slots.get(runtime.name);
    if (!slot)
      return { refused: `stream ${target.name} is pulling from its urls and takes no publisher now` };
    return slot(request);
  }

  /** A client wants the stream: an on-demand stream starts now. Undefined when there is no such stream. */
  touch(name: string): StreamRuntime | undefined {
    const runtime = this.get(name) ?? this.pullForPlayer(name);
    if (runtime && !runtime.running && !runtime.spec.disabled) {
      this.deps.log.notice(`stream ${name}: started on demand`);
      runtime.start();
    }
    return runtime;
  }

  /**
   * PREFIX/NAME pulled from its location's urls for a player (engine/location-urls.ts): the stream,
   * not started yet (a player's request is authorized first; touch starts it).
   */
  pullable(name: string): StreamRuntime | undefined {
    return this.get(name) ?? this.pullForPlayer(name, false);
  }

  private pullForPlayer(name: string, start = true): StreamRuntime | undefined {
    const target = pullLocation(this.config, name);
    if (!target) return undefined;
    if (this.published.size >= MAX_PULLED_STREAMS) {
      this.deps.log.error(`stream ${name} not pulled: ${MAX_PULLED_STREAMS} location streams run already`);
      return undefined;
    }
    return this.published.open(target.prefix, target.location, name, start);
  }

  /** stream_restart; false when there is no such stream. */
  restart(name: string): boolean {
    const runtime = this.streams.get(name) ?? this.external.get(name)?.runtime;
    if (!runtime || runtime.spec.disabled) return false;
    runtime.restart();
    return true;
  }

  mediaInfo(name: string): MediaInfo | undefined {
    const runtime = this.streams.get(name) ?? this.external.get(name)?.runtime;
    if (!runtime?.bus) return undefined;
    // A transcoded stream's output is its renditions, one program each: the transcoder lists them all.
    return runtime.transcoder?.mediaInfo(Date.now()) ?? runtime.bus.demux.mediaInfo(Date.now());
  }

  traffic(): Traffic {
    const now = Date.now();
    let inputBytes = 0;
    for (const runtime of this.streams.values()) inputBytes += runtime.inputBus?.input.perSecond(now) ?? 0;
    for (const [, { runtime }] of this.published.entries())
      inputBytes += runtime.inputBus?.input.perSecond(now) ?? 0;
    for (const { runtime } of this.external.values())
      inputBytes += runtime.inputBus?.input.perSecond(now) ?? 0;
    const clients = this.deps.clients;
    return {
      inputKbit: (inputBytes * 8) / 1000,
      outputKbit: (clients.outBytesPerSecond(now) * 8) / 1000,
      clients: clients.totalClients(),
      openedFiles: 0,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.ticker);
    await Promise.all([...this.queues.values()]);
    await Promise.all([...this.streams.values()].map((r) => r.stop()));
    await Promise.all([...this.external.values()].map(({ runtime }) => runtime.stop()));
    await this.published.close();
  }

  /** Starts or stops the stream so it runs exactly when wanted: enabled and static (or just asked for). */
  private async settle(runtime: StreamRuntime, wasRunning = false): Promise<void> {
    const current = this.streams.get(runtime.name) ?? this.external.get(runtime.name)?.runtime;
    if (current !== runtime) return;
    const { disabled } = runtime.spec;
    if (disabled && runtime.running) await runtime.stop();
    else if (!disabled && !runtime.running && (runtime.spec.static || wasRunning)) runtime.start();
  }

  private enqueue(name: string, task: () => Promise<void>): void {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((error: Error) => this.deps.log.error(`stream ${name}: ${error.message}`));
    this.queues.set(name, next);
    void next.then(() => {
      if (this.queues.get(name) === next) this.queues.delete(name);
    });
  }

  private tick(): void {
    const now = Date.now();
    const writes: ViewWrite[] = [];
    const snapshot = this.deps.view.snapshot;
    for (const [name, runtime] of this.streams)
      this.tickStream(name, runtime, ['streams', name], now, writes);
    for (const [name, { runtime, viewPath }] of this.external)
      this.tickStream(name, runtime, viewPath, now, writes);
    this.published.sweep(this.config, now, (name) => this.deps.clients.figures(name, now));
    for (const [name, { prefix, runtime }] of this.published.entries()) {
      runtime.maintain();
      const stats = runtime.stats(now, this.deps.clients.figures(name, now));
      Object.assign(stats, this.deps.moreStats?.(name, now));
      this.deps.onStats?.(name, stats, now);
      writes.push(...statsWrites(snapshot, ['lives', prefix, 'streams', name], stats));
    }
    if (writes.length > 0) this.deps.view.setMany(writes);
  }

  /** One configured (or external) stream's second: idle stop, pushes, stats to the view. */
  private tickStream(
    name: string,
    runtime: StreamRuntime,
    viewPath: readonly string[],
    now: number,
    writes: ViewWrite[],
  ): void {
    const figures = this.deps.clients.figures(name, now);
    const more = this.deps.moreStats?.(name, now);
    // A stopped stream nobody ever asked for has written its (empty) stats once: nothing moves
    // (unless figures from outside, such as its archive, do).
    const quiet = !runtime.running && figures.lastAccessAt === undefined && !runtime.hasError && !more;
    if (quiet && this.quiet.has(runtime)) return;
    if (quiet) this.quiet.add(runtime);
    else this.quiet.delete(runtime);
    this.stopIfIdle(runtime, figures, now);
    runtime.maintain();
    const stats = runtime.stats(now, figures);
    Object.assign(stats, more);
    this.limitBitrate(runtime, stats.bitrate);
    this.deps.onStats?.(name, stats, now);
    writes.push(...statsWrites(this.deps.view.snapshot, viewPath, stats));
  }

  /** max_bitrate (kbit/s, spec 001 §2 publishing block): a publisher sending more is disconnected. */
  private limitBitrate(runtime: StreamRuntime, bitrate: number | undefined): void {
    const limit = runtime.spec.maxBitrateKbps;
    const source = runtime.activeSource;
    if (!limit || bitrate === undefined || bitrate <= limit || !source?.publishedFrom) return;
    source.kick?.(`${bitrate} kbit/s is over max_bitrate ${limit}`);
  }

  /** An on-demand stream stops clients_timeout after its last client left (spec 001 §2 Output). */
  private stopIfIdle(runtime: StreamRuntime, clients: ClientFigures, now: number): void {
    if (runtime.spec.static || !runtime.running || clients.openResponses > 0) return;
    const since = Math.max(clients.lastAccessAt ?? 0, runtime.startedAtMs ?? 0);
    if (now - since < runtime.spec.clientsTimeoutSeconds * 1000) return;
    this.deps.log.notice(
      `stream ${runtime.name}: no clients for ${runtime.spec.clientsTimeoutSeconds} s, stopping`,
    );
    this.enqueue(runtime.name, () => runtime.stop());
  }
}
