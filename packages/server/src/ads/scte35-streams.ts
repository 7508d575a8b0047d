import type { Config } from '@sluice/api';
import type { Engine } from '../engine/engine.js';
import { type CueSlot, Scte35Slots } from './scte35-slots.js';

/** How often the streams' buses are looked at (a restarted stream has a new one). */
const FOLLOW_EVERY_MS = 500;

/**
 * SCTE-35 cues of the streams that take ads (an `ad_schedule`), whatever their MPEG-TS source (UDP,
 * HTTP MPEG-TS, SRT, an HTTP publish): each such stream's packet bus is followed by a Scte35Slots,
 * its cues written to the stream's log, and `slot(name, now)` gives the inserter the break a cue
 * asked for, beside its schedule's slots. Streams without a schedule are not looked at.
 */
export class Scte35Streams {
  private readonly streams = new Map<string, Scte35Slots>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly engine: Pick<Engine, 'get'>) {
    this.timer = setInterval(() => this.follow(), FOLLOW_EVERY_MS);
    this.timer.unref();
  }

  /** `changedStreams`: the only streams an edit can have changed (undefined: any of them). */
  apply(config: Config, changedStreams?: readonly string[]): void {
    const streams = config.streams ?? {};
    const looked = changedStreams ? new Set(changedStreams) : undefined;
    const wanted = new Set(
      [...(looked ?? Object.keys(streams))].filter((name) => streams[name]?.ad_schedule !== undefined),
    );
    for (const [name, slots] of this.streams)
      if (!wanted.has(name) && (!looked || looked.has(name))) {
        slots.close();
        this.streams.delete(name);
      }
    for (const name of wanted)
      if (!this.streams.has(name))
        this.streams.set(name, new Scte35Slots((line) => this.engine.get(name)?.note(line)));
    this.follow();
  }

  /** The break an SCTE-35 cue of stream `name` asked for, running at `nowMs` or ahead. */
  slot(name: string, nowMs: number): CueSlot | undefined {
    return this.streams.get(name)?.current(nowMs);
  }

  close(): void {
    clearInterval(this.timer);
    for (const slots of this.streams.values()) slots.close();
    this.streams.clear();
  }

  private follow(): void {
    for (const [name, slots] of this.streams) slots.follow(this.engine.get(name)?.bus);
  }
}
