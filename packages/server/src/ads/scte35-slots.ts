import type { PacketBus } from '../media/packet-bus.js';
import { TS_CLOCK, tsDiff } from '../media/ts-packet.js';
import type { Scte35Cue } from './scte35-cue.js';
import { watchScte35 } from './scte35-watch.js';

/** A break an SCTE-35 cue asked for, placed on the wall clock (epoch ms). */
export interface CueSlot {
  eventId: number;
  startMs: number;
  endMs: number;
}

/** A splice point further ahead than this is taken as this far (a bad clock must not park a break). */
const MAX_LEAD_MS = 10_000;
/** A cue-out without a duration lasts until its cue-in, and never longer than this. */
export const MAX_CUE_BREAK_MS = 5 * 60_000;

/**
 * SCTE-35 cues of a stream's MPEG-TS source as ad slots, for the inserter to use beside its
 * schedule's: `follow(bus)` as the stream's bus comes and goes, `current(now)` the running or next
 * cue slot. A cue-out's splice time (90 kHz) is placed on the wall clock against the stream's
 * newest frame when it arrives (the demuxer's last DTS); its break_duration (or the segmentation
 * duration) sets the end, else the matching cue-in does (at most MAX_CUE_BREAK_MS). A cue-in ends
 * the running slot at its own splice time.
 */
export class Scte35Slots {
  private bus: PacketBus | undefined;
  private off: (() => void) | undefined;
  private slot: CueSlot | undefined;

  constructor(
    private readonly log: (line: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  follow(bus: PacketBus | undefined): void {
    if (bus === this.bus) return;
    this.off?.();
    this.bus = bus;
    this.off = bus
      ? watchScte35(bus, {
          cue: (cue) => this.onCue(cue, bus),
          bad: (reason) => this.log(`SCTE-35 section ignored: ${reason}`),
        })
      : undefined;
  }

  /** The cue slot running at `nowMs` or ahead of it; undefined once it ended. */
  current(nowMs: number): CueSlot | undefined {
    if (this.slot && this.slot.endMs <= nowMs) this.slot = undefined;
    return this.slot;
  }

  close(): void {
    this.follow(undefined);
  }

  private onCue(cue: Scte35Cue, bus: PacketBus): void {
    const now = this.now();
    const lastDts = bus.demux.lastDts;
    const lead =
      cue.pts90k === undefined || lastDts === undefined
        ? 0
        : Math.min(MAX_LEAD_MS, Math.max(0, (tsDiff(cue.pts90k, lastDts) * 1000) / TS_CLOCK));
    const at = Math.round(now + lead);
    if (cue.kind === 'out') {
      const lengthMs =
        cue.durationS === undefined ? MAX_CUE_BREAK_MS : Math.min(MAX_CUE_BREAK_MS, cue.durationS * 1000);
      if (lengthMs <= 0) return;
      this.slot = { eventId: cue.eventId, startMs: at, endMs: at + Math.round(lengthMs) };
      this.log(
        `SCTE-35 cue-out (event ${cue.eventId}): an ad break of ${Math.round(lengthMs / 1000)} s in ${Math.round(lead)} ms`,
      );
    } else if (this.slot && at > this.slot.startMs) {
      this.slot = { ...this.slot, endMs: Math.min(this.slot.endMs, at) };
      this.log(`SCTE-35 cue-in (event ${cue.eventId}): the break ends in ${Math.round(lead)} ms`);
    }
  }
}
