import type { SourceEntry } from '@sluice/api';
import type { Source, SourceEvents } from './sources/source.js';

export interface SwitcherOptions {
  /** In the order they are tried (see orderSources). */
  entries: readonly SourceEntry[];
  /** Seconds without data after which a source counts as dead (stream source_timeout; an entry's own wins). */
  timeoutSeconds: number;
  open: (entry: SourceEntry, timeoutMs: number, events: SourceEvents) => Source;
  /** Data of the active source only. */
  onData: (chunk: Buffer) => void;
  /** The active source changed (or restarted): the bus starts a new timeline. */
  onSwitch: (url: string, reason: string) => void;
  /** A failed attempt or a timeout. */
  onError: (message: string) => void;
  onLog: (line: string) => void;
  /** How often the switcher looks at its sources. */
  checkEveryMs?: number;
  /** Reads a probed source's data, saying when it may take over (media/keyframe-watch.ts). */
  watchProbe?: (entry: SourceEntry) => ProbeWatch;
  /** Played while every source is down (the stream's `backup`); the sources are probed meanwhile. */
  backup?: SourceEntry;
}

/** Whether the data a probed source sent so far holds a keyframe to start playing at. */
export interface ProbeWatch {
  push(chunk: Buffer): boolean;
}

interface Running {
  index: number;
  source: Source;
  startedAt: number;
  firstDataAt: number;
  lastDataAt: number;
  bytes: number;
  lastError: string | undefined;
  /** A probe's data so far, handed to the bus when it takes over; its watch. */
  probeData: Buffer[];
  probeBytes: number;
  watch: ProbeWatch | undefined;
}

/** Bytes a better source must deliver during a probe before the stream moves back to it. */
const PROBE_BYTES = 188 * 64;
/** A probe's data kept for the bus; older chunks go first (the keyframe is in the newest). */
const PROBE_DATA_BYTES = 16 * 1024 * 1024;

/**
 * Runs one source of a stream at a time and fails over. The active source is dead once it sent
 * nothing for its source_timeout: the next one in order takes over (after the last, the first
 * again). While a lower source is active, the better ones are probed in turn, each for up to its
 * timeout; one that delivers data takes over again, once its data holds a keyframe: the bus drops
 * a new source's data before its first keyframe, so the probe's data is handed over from its start
 * and the stream plays on without a gap. A source chosen by hand (stream_switch_source) stays until
 * it dies: no probing moves the stream away from it.
 */
export class SourceSwitcher {
  private active: Running | undefined;
  private probe: Running | undefined;
  private nextProbe = 0;
  private probeDueAt = 0;
  private pinned = false;
  private timer: NodeJS.Timeout | undefined;
  /** Sources that timed out one after another since one last delivered data. */
  private failedInRow = 0;
  /** The sources, then the backup (at index `sources`, when there is one). */
  private readonly all: readonly SourceEntry[];
  private readonly sources: number;

  constructor(private readonly options: SwitcherOptions) {
    this.sources = options.entries.length;
    this.all = options.backup ? [...options.entries, options.backup] : options.entries;
  }

  get activeUrl(): string | undefined {
    return this.active ? this.all[this.active.index]?.url : undefined;
  }

  /** The backup plays (every source is down, and it delivers: a missing file does not count). */
  get onBackup(): boolean {
    const active = this.active;
    return active !== undefined && active.index >= this.sources && active.lastDataAt > 0;
  }

  get activeIndex(): number | undefined {
    return this.active?.index;
  }

  get activeSource(): Source | undefined {
    return this.active?.source;
  }

  start(index = 0): void {
    this.timer ??= setInterval(() => this.check(), this.options.checkEveryMs ?? 250);
    this.activate(index, 'start');
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const running = [this.active, this.probe];
    this.active = undefined;
    this.probe = undefined;
    await Promise.all(running.map((r) => r?.source.stop()));
  }

  /** Moves to the source with this URL and stays there; false when the stream has no such source. */
  switchTo(url: string): boolean {
    const index = this.options.entries.findIndex((e) => e.url === url);
    if (index < 0) return false;
    this.failedInRow = 0;
    this.pinned = true;
    if (this.active?.index !== index) this.activate(index, 'switched by request');
    return true;
  }

  /** Starts over from the best source. */
  restart(): void {
    this.pinned = false;
    this.failedInRow = 0;
    this.activate(0, 'restarted by request');
  }

  private timeoutMs(index: number): number {
    const own = this.all[index]?.source_timeout;
    return (own ?? this.options.timeoutSeconds) * 1000;
  }

  private run(index: number, isProbe: boolean): Running {
    const entry = this.all[index]!;
    const now = Date.now();
    const running: Running = {
      index,
      source: undefined!,
      startedAt: now,
      firstDataAt: 0,
      lastDataAt: 0,
      bytes: 0,
      lastError: undefined,
      probeData: [],
      probeBytes: 0,
      watch: isProbe ? this.options.watchProbe?.(entry) : undefined,
    };
    running.source = this.options.open(entry, this.timeoutMs(index), {
      data: (chunk) => {
        const now = Date.now();
        if (running.lastDataAt === 0) running.firstDataAt = now;
        running.lastDataAt = now;
        running.bytes += chunk.length;
        if (index < this.sources && running === this.active) this.failedInRow = 0;
        if (running === this.active) this.options.onData(chunk);
        else if (running === this.probe) this.onProbeData(running, chunk, now);
      },
      error: (message) => {
        running.lastError = message;
        if (running === this.active) this.options.onError(message);
      },
      log: (line) => {
        if (running === this.active || running === this.probe)
          this.options.onLog(isProbe ? `probe: ${line}` : line);
      },
    });
    running.source.start();
    return running;
  }

  private activate(index: number, reason: string): void {
    const previous = this.active;
    if (this.probe?.index === index) {
      this.active = this.probe;
      this.probe = undefined;
    } else {
      this.active = this.run(index, false);
    }
    if (previous && previous !== this.active) void previous.source.stop();
    if (this.probe && this.probe.index >= index) this.stopProbe();
    this.nextProbe = 0;
    this.probeDueAt = Date.now() + this.timeoutMs(0);
    this.options.onSwitch(this.all[index]!.url, reason);
    // The backup failing at once (a missing file) is shown now, not after its timeout.
    if (index >= this.sources && this.active.lastError) this.options.onError(this.active.lastError);
    const active = this.active;
    const data = active.probeData;
    active.probeData = [];
    active.probeBytes = 0;
    for (const chunk of data) if (this.active === active) this.options.onData(chunk);
  }

  /** Keeps a probe's data; it takes over once it sent enough with a keyframe (or long enough without). */
  private onProbeData(probe: Running, chunk: Buffer, now: number): void {
    probe.probeData.push(chunk);
    probe.probeBytes += chunk.length;
    while (probe.probeBytes > PROBE_DATA_BYTES && probe.probeData.length > 1)
      probe.probeBytes -= probe.probeData.shift()!.length;
    const ready = probe.watch?.push(chunk) ?? true;
    if (probe.bytes < PROBE_BYTES) return;
    // A source whose keyframes cannot be told (no video or audio the demuxer reads) still comes back.
    if (ready || now - probe.firstDataAt > this.timeoutMs(probe.index)) this.promoteProbe();
  }

  private promoteProbe(): void {
    const probe = this.probe!;
    this.options.onLog(`${this.options.entries[probe.index]!.url} is back: switching to it`);
    this.pinned = false;
    this.failedInRow = 0;
    this.activate(probe.index, 'a better source is back');
  }

  private stopProbe(): void {
    void this.probe?.source.stop();
    this.probe = undefined;
  }

  private check(): void {
    const active = this.active;
    if (!active) return;
    const now = Date.now();
    // A publish slot without a publisher is silent by nature; its time starts when one comes.
    if (active.source.waiting) active.startedAt = now;
    const silentMs = now - Math.max(active.lastDataAt, active.startedAt);
    if (silentMs > this.timeoutMs(active.index)) {
      const url = this.all[active.index]!.url;
      const backup = active.index >= this.sources;
      // A backup's error was told when it happened (or when the backup began): not counted twice.
      if (!backup || !active.lastError)
        this.options.onError(active.lastError ?? `${url}: no data for ${Math.round(silentMs / 1000)} s`);
      this.pinned = false;
      if (!backup) this.failedInRow++;
      // Every source had its turn and none delivered: the backup plays (a silent backup, e.g. a
      // missing file, hands back to the sources, so each is tried once per round, not in a storm).
      if (!backup && this.options.backup && this.failedInRow >= this.sources) {
        this.failedInRow = 0;
        this.activate(this.sources, 'every source is down: playing the backup');
        return;
      }
      const next = backup ? 0 : (active.index + 1) % this.sources;
      if (next === active.index) {
        // A single source: restart it, since a remux may be stuck where a fresh start is not.
        void active.source.stop();
        this.active = this.run(next, false);
        this.options.onSwitch(url, 'restarted after a timeout');
      } else {
        this.activate(next, `${url} timed out`);
      }
      return;
    }
    this.checkProbe(now, active.index);
  }

  private checkProbe(now: number, activeIndex: number): void {
    const probe = this.probe;
    if (probe) {
      if (now - Math.max(probe.lastDataAt, probe.startedAt) > this.timeoutMs(probe.index)) {
        this.stopProbe();
        this.probeDueAt = now;
      }
      return;
    }
    if (this.pinned || activeIndex === 0 || now < this.probeDueAt) return;
    const index = this.nextProbe % activeIndex;
    this.nextProbe = index + 1;
    this.probe = this.run(index, true);
  }
}
