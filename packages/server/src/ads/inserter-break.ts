import type { Source } from '../engine/sources/source.js';
import { KeyframeWatch } from '../media/keyframe-watch.js';
import type { PacketBus } from '../media/packet-bus.js';

/** An ad ready to play: its schedule name, the conformed MPEG-TS on disk, its length. */
export interface BreakFile {
  name: string;
  path: string;
  durationMs: number;
}

/** What a break needs of its stream (engine/stream-runtime.ts). */
export interface BreakHost {
  /** The bus the sources feed; undefined once the stream stopped. */
  readonly inputBus: PacketBus | undefined;
  liveGate: ((chunk: Buffer) => boolean) | undefined;
  openFile(
    path: string,
    events: { data(c: Buffer): void; error(m: string): void; log(l: string): void },
  ): Source;
  note(line: string): void;
}

export interface BreakEvents {
  /** An ad went on air (at a keyframe: a conformed file starts with one). */
  adStarted(file: BreakFile, atMs: number): void;
  /** Live is back on air, at its first keyframe after the slot. */
  liveResumed(atMs: number): void;
}

/** An ad is started this long before it goes on air, so ffmpeg's start-up does not make the switch late. */
export const AD_PREROLL_MS = 1500;
/** Ad data held before its turn (bounded: a few seconds of a conformed file). */
const HELD_BYTES = 8 * 1024 * 1024;

interface Cued {
  file: BreakFile;
  source: Source;
  held: Buffer[];
  heldBytes: number;
  onAir: boolean;
  failed: boolean;
}

/**
 * One ad slot on one stream. The ads play as file sources (the backup file's path: real-time
 * ffmpeg remux of a file), one after another; each is started AD_PREROLL_MS early with its data
 * held, then put on air at its time with a discontinuity, as a source switch is. The live source
 * keeps running and is gated off; at the slot's end the live data is watched for its first
 * keyframe and goes back on air from there while the ad plays on until then. A file that fails
 * is skipped; when none is left, live comes back at once: a broken ad never blacks out the channel.
 */
export class AdBreak {
  private current: Cued | undefined;
  private next: Cued | undefined;
  private index = 0;
  private timers: NodeJS.Timeout[] = [];
  private returning: { watch: KeyframeWatch; held: Buffer[] } | undefined;
  private done = false;

  constructor(
    private readonly host: BreakHost,
    private readonly files: readonly BreakFile[],
    private readonly startMs: number,
    private readonly endMs: number,
    private readonly events: BreakEvents,
  ) {}

  get finished(): boolean {
    return this.done;
  }

  /** Cues the first ad now (AD_PREROLL_MS or less before the slot) and puts it on air at the slot start. */
  begin(): void {
    this.next = this.cue();
    if (!this.next) return this.finish('no ad file could play: staying live');
    this.at(this.startMs, () => this.take());
    this.at(this.endMs, () => this.backToLive());
  }

  /** Ends the break now (the stream stops or its schedule went): live as it is. */
  cancel(): void {
    this.finish('ad break cancelled');
  }

  private at(whenMs: number, run: () => void): void {
    this.timers.push(setTimeout(run, Math.max(0, whenMs - Date.now())));
  }

  private cue(): Cued | undefined {
    const file = this.files[this.index++];
    if (!file) return undefined;
    const cued: Cued = { file, source: undefined!, held: [], heldBytes: 0, onAir: false, failed: false };
    cued.source = this.host.openFile(file.path, {
      data: (chunk) => this.onAdData(cued, chunk),
      error: (message) => this.onAdError(cued, message),
      log: () => undefined,
    });
    cued.source.start();
    return cued;
  }

  private onAdData(cued: Cued, chunk: Buffer): void {
    if (this.done || cued.failed) return;
    if (cued.onAir) {
      this.host.inputBus?.write(chunk);
      return;
    }
    if (cued.heldBytes > HELD_BYTES) return;
    cued.held.push(chunk);
    cued.heldBytes += chunk.length;
    // Due and waiting for its first data: on air now.
    if (cued === this.next && Date.now() >= this.dueMs) this.take();
  }

  private dueMs = Number.POSITIVE_INFINITY;

  /** Puts the cued ad on air (at once if it has data, else at its first data). */
  private take(): void {
    if (this.done || this.returning) return;
    const cued = this.next;
    if (!cued) return;
    this.dueMs = Date.now();
    if (cued.held.length === 0) return;
    const bus = this.host.inputBus;
    if (!bus) return this.finish('the stream stopped');
    this.next = undefined;
    const previous = this.current;
    this.current = cued;
    void previous?.source.stop();
    this.host.liveGate = (chunk) => this.onLiveData(chunk);
    bus.discontinuity(true);
    cued.onAir = true;
    const now = Date.now();
    for (const chunk of cued.held) bus.write(chunk);
    cued.held = [];
    this.host.note(`ad ${cued.file.name} on air, ${now - this.startMs} ms after the slot start`);
    this.events.adStarted(cued.file, now);
    const endOfFile = now + cued.file.durationMs;
    if (endOfFile < this.endMs - 500) {
      this.at(endOfFile - AD_PREROLL_MS, () => {
        if (this.done || this.returning) return;
        this.next = this.cue();
        if (this.next) this.at(endOfFile, () => this.take());
      });
    }
  }

  private onAdError(cued: Cued, message: string): void {
    if (cued.failed || this.done) return;
    cued.failed = true;
    void cued.source.stop();
    this.host.note(`ad ${cued.file.name} failed (${message}): skipped`);
    if (cued === this.next) {
      // Not on air yet: the next file takes its place; none left, live stays.
      this.next = this.cue();
      if (!this.next) {
        if (this.current) this.backToLive();
        else this.finish('no ad file could play: staying live');
      } else if (Date.now() >= this.dueMs) this.dueMs = Date.now();
      return;
    }
    if (cued === this.current) this.backToLive();
  }

  /** The slot is over (or the ad failed): live goes back on air at its first keyframe. */
  private backToLive(): void {
    if (this.done || this.returning) return;
    if (!this.current || this.current.failed) {
      // Nothing of an ad is on air to bridge the wait: live at once, the bus starts at its keyframe.
      return this.finish('back to live');
    }
    this.returning = { watch: new KeyframeWatch(), held: [] };
  }

  /** Live data while an ad is on air: off the air; after the slot, held until its first keyframe. */
  private onLiveData(chunk: Buffer): boolean {
    const returning = this.returning;
    if (!returning) return true;
    returning.held.push(chunk);
    if (!returning.watch.push(chunk)) return true;
    const bus = this.host.inputBus;
    this.stopAds();
    bus?.discontinuity(true);
    // The bus drops what comes before the keyframe: the held data is written from its start.
    for (const held of returning.held) bus?.write(held);
    this.host.liveGate = undefined;
    this.events.liveResumed(Date.now());
    this.finish(`back to live, ${Date.now() - this.endMs} ms after the slot end`);
    return true;
  }

  private stopAds(): void {
    for (const cued of [this.current, this.next]) if (cued) void cued.source.stop();
    this.current = undefined;
    this.next = undefined;
  }

  private finish(line: string): void {
    if (this.done) return;
    this.done = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.stopAds();
    if (this.host.liveGate) {
      this.host.liveGate = undefined;
      this.host.inputBus?.discontinuity(true);
      this.events.liveResumed(Date.now());
    }
    this.host.note(line);
  }
}
