import type { SourceEntry, StreamStats } from '@sluice/api';
import { LineLog } from './ffmpeg/line-log.js';
import { KeyframeWatch } from '../media/keyframe-watch.js';
import { PacketBus } from '../media/packet-bus.js';
import { parsePids } from '../media/program-filter.js';
import { StreamPushes } from './pushes.js';
import { planSource } from './source-url.js';
import { createSource, redactUrl, type SourceContext } from './sources/create-source.js';
import type { Source, SourceEvents } from './sources/source.js';
import { SourceSwitcher } from './source-switcher.js';
import type { StreamSpec } from './stream-spec.js';
import { missingBackupFile } from './backup-file.js';
import { StreamTranscoder, type TranscoderContext } from '../transcoder/stream-transcoder.js';

/** What delivery measured for this stream's clients. */
export interface ClientFigures {
  count: number;
  bytesOut: number;
  lastAccessAt: number | undefined;
  outBytesPerSecond: number;
  /** Responses still streaming (continuous TS players). */
  openResponses: number;
}

/**
 * One configured stream while the server runs: its sources (through the switcher) feed a packet
 * bus that delivery reads. It exists while the stream is configured; it runs while it is wanted
 * (static, or on demand with clients) and not disabled.
 */
export class StreamRuntime {
  bus: PacketBus | undefined;
  /** With a transcoder: its output is `bus`, and the sources feed this one (else the same bus). */
  private sourceBus: PacketBus | undefined;
  /** The running transcoder, when the stream has one (transcoder/stream-transcoder.ts). */
  transcoder: StreamTranscoder | undefined;
  /** The stream's log (spec 001 §2 live log panel), bounded. */
  readonly log: LineLog;
  private switcher: SourceSwitcher | undefined;
  private startedAt: number | undefined;
  private retryCount = 0;
  private sourceError: string | undefined;
  private readonly logListeners = new Set<(line: string) => void>();
  private readonly pushes: StreamPushes;
  /**
   * An ad break (ads/inserter-break.ts) while one plays: true takes the live chunk off the air (the
   * live source keeps running, so the way back is immediate).
   */
  liveGate: ((chunk: Buffer) => boolean) | undefined;

  constructor(
    public spec: StreamSpec,
    private readonly context: SourceContext,
  ) {
    this.log = new LineLog(500, (line) => {
      for (const listener of this.logListeners) listener(line);
    });
    this.pushes = new StreamPushes({ ffmpegPath: context.ffmpegPath, env: context.childEnv }, (line) =>
      this.note(line),
    );
  }

  /** Called each second: brings the pushes in line with the spec and the running bus. */
  maintain(): void {
    this.pushes.sync(this.spec.pushes, this.bus);
    this.transcoder?.maintain(Date.now());
  }

  get name(): string {
    return this.spec.name;
  }

  /** What the sources feed (the input figures): the transcoder's input when there is one. */
  get inputBus(): PacketBus | undefined {
    return this.sourceBus;
  }

  get startedAtMs(): number | undefined {
    return this.startedAt;
  }

  /** A source error is being shown. */
  get hasError(): boolean {
    return this.sourceError !== undefined;
  }

  get running(): boolean {
    return this.switcher !== undefined;
  }

  start(): void {
    if (this.switcher || this.spec.disabled) return;
    const spec = this.spec;
    const segments = { targetDurationMs: spec.segmentDurationMs, windowSize: spec.segmentCount };
    this.sourceBus = new PacketBus(segments);
    this.transcoder = spec.transcoder
      ? new StreamTranscoder(spec.transcoder, this.sourceBus, segments, this.transcoderContext, (l) =>
          this.note(l),
        )
      : undefined;
    this.bus = this.transcoder?.bus ?? this.sourceBus;
    this.startedAt = Date.now();
    this.retryCount = 0;
    this.sourceError = undefined;
    // No urls is a config state the console shows as "no sources defined" (spec 000 §4 rule 5),
    // not a source failing: no source_error for it.
    if (spec.sources.length === 0) this.note('no source urls: the stream has nothing to play');
    const bus = this.sourceBus;
    this.switcher = new SourceSwitcher({
      entries: spec.sources,
      timeoutSeconds: spec.sourceTimeoutSeconds,
      open: (entry, timeoutMs, events) => this.open(entry, timeoutMs, events),
      onData: (chunk) => {
        if (this.sourceError !== undefined) {
          this.sourceError = undefined;
          this.retryCount = 0;
        }
        if (!this.liveGate?.(chunk)) bus.write(chunk);
      },
      onSwitch: (url, reason) => {
        bus.discontinuity();
        const entry = spec.sources.find((s) => s.url === url);
        bus.selectProgram(entry?.program, parsePids(entry?.pids), entry?.allow_subtitles !== 'false');
        this.note(`source ${redactUrl(url)}: ${reason}`);
      },
      onError: (message) => {
        this.retryCount++;
        this.sourceError = message;
        this.note(`error: ${message}`);
      },
      onLog: (line) => this.note(line),
      // A better source takes over at a keyframe of its own, so the switch back leaves no gap.
      watchProbe: (entry) => new KeyframeWatch(entry.program, parsePids(entry.pids)),
      ...(spec.backup ? { backup: spec.backup } : {}),
    });
    if (spec.sources.length > 0) this.switcher.start();
    this.note('started');
  }

  async stop(): Promise<void> {
    const switcher = this.switcher;
    if (!switcher) return;
    this.switcher = undefined;
    this.bus = undefined;
    this.sourceBus = undefined;
    this.startedAt = undefined;
    const transcoder = this.transcoder;
    this.transcoder = undefined;
    await Promise.all([switcher.stop(), this.pushes.stop(), transcoder?.stop()]);
    this.note('stopped');
  }

  /** stream_restart: the sources start over from the best one; the playlist keeps rolling. */
  restart(): void {
    if (!this.switcher) return this.start();
    // The operator asked for a fresh start: start_running_at and lifetime count from now.
    this.startedAt = Date.now();
    this.retryCount = 0;
    this.switcher.restart();
  }

  /** The active source, while running (the engine asks a publish source about its publisher). */
  get activeSource(): Source | undefined {
    return this.switcher?.activeSource;
  }

  /** Whether publishers may publish into this stream (a publish:// source, or publish_enabled). */
  get acceptsPublish(): boolean {
    return this.spec.sources.some((s) => s.url.startsWith('publish://'));
  }

  /** stream_switch_source: false when the stream has no source with this URL. */
  switchSource(url: string): boolean {
    return this.switcher?.switchTo(url) ?? false;
  }

  onLog(listener: (line: string) => void): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** Resolves true once the playlist has a segment, false after `timeoutMs` or if the stream stops. */
  waitForPlaylist(timeoutMs: number): Promise<boolean> {
    const bus = this.bus;
    if (!bus) return Promise.resolve(false);
    if (this.transcoder) return this.transcoder.waitReady(timeoutMs);
    if (bus.segmenter.playlist()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        off();
        resolve(ok);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      const off = bus.segmenter.onSegment(() => done(true));
    });
  }

  /** Every figure of spec 000 §3 "Stream stats" this runtime measures. */
  stats(nowMs: number, clients: ClientFigures): StreamStats {
    // Input figures come from what the sources feed, before any transcoder.
    const bus = this.sourceBus;
    const stats: StreamStats = {};
    // A stream that never ran and never had a client has nothing to say: with 20,000 on-demand
    // streams, writing zeros for each would only fill the live view and its change log.
    if (this.running || clients.count > 0 || clients.bytesOut > 0) {
      Object.assign(stats, {
        running: this.running,
        alive: false,
        client_count: clients.count,
        bytes_out: clients.bytesOut,
        out_bandwidth: Math.round((clients.outBytesPerSecond * 8) / 1000),
        retry_count: this.retryCount,
      });
    }
    if (clients.lastAccessAt !== undefined) stats.last_access_at = clients.lastAccessAt;
    if (this.sourceError !== undefined) stats.source_error = this.sourceError;
    const transcoder = this.transcoder;
    if (transcoder) {
      stats.running_transcoder = transcoder.running;
      // A failing or slow transcoder is the stream's error while its source is fine (docs/media.md).
      const error = transcoder.error;
      if (error !== undefined) stats.source_error ??= error;
    }
    const pushes = this.pushes.stats();
    if (pushes.length > 0) stats.pushes = pushes;
    if (!bus || this.startedAt === undefined) return stats;
    const demux = bus.demux;
    const delay = bus.lastPacketAt > 0 ? nowMs - bus.lastPacketAt : nowMs - this.startedAt;
    stats.alive =
      bus.lastPacketAt > 0 && delay < this.spec.sourceTimeoutSeconds * 1000 && demux.primaryPid !== undefined;
    stats.start_running_at = this.startedAt;
    stats.lifetime = nowMs - this.startedAt;
    stats.bitrate = Math.round((bus.input.perSecond(nowMs) * 8) / 1000);
    stats.bytes_in = bus.input.total;
    stats.input_error_rate = demux.errors.perSecond(nowMs);
    stats.ts_delay = delay;
    const url = this.switcher?.activeUrl;
    if (url !== undefined) stats.url = url;
    if (this.spec.backup) stats.backup = this.switcher?.onBackup === true;
    const publisher = this.switcher?.activeSource?.publishedFrom;
    if (publisher) Object.assign(stats, { published_from: publisher.from, published_via: publisher.via });
    if (demux.lastDts !== undefined) stats.last_dts = Math.round(demux.lastDts / 90);
    if (demux.primaryPid !== undefined) {
      // Without a transcoder what goes out is what came in, both read from the one bus.
      const info = demux.mediaInfo(nowMs);
      stats.input_media_info = info;
      const output = transcoder ? transcoder.mediaInfo(nowMs) : info;
      if (output) stats.media_info = output;
    }
    return stats;
  }

  private open(entry: SourceEntry, timeoutMs: number, events: SourceEvents): Source {
    const label = redactUrl(entry.url);
    const missing = entry === this.spec.backup ? missingBackupFile(entry.url) : undefined;
    if (missing) return { start: () => events.error(missing), stop: async () => undefined };
    try {
      const { name, password, onPublish, clusterKey } = this.spec;
      const owner = { name, password, onPublish, clusterKey };
      return createSource(planSource(entry, timeoutMs / 1000), label, timeoutMs, events, this.context, owner);
    } catch (error) {
      const message = (error as Error).message;
      return { start: () => events.error(message), stop: async () => undefined };
    }
  }

  /** A file played in place of the live source the way the backup file is (ads/inserter-break.ts). */
  openFile(path: string, events: SourceEvents): Source {
    return this.open({ url: `file://${path}` }, this.spec.sourceTimeoutSeconds * 1000, events);
  }

  private get transcoderContext(): TranscoderContext {
    const { ffmpegPath, childEnv, logoDir } = this.context;
    return { ffmpegPath, env: childEnv, logoDir };
  }

  note(line: string): void {
    this.log.note(`${new Date().toISOString()} ${line}`);
  }
}
