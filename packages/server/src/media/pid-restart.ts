import {
  continuityOf,
  hasAdaptation,
  hasPayload,
  NULL_PID,
  PACKET_SIZE,
  pidOf,
  startsUnit,
  SYNC_BYTE,
} from './ts-packet.js';

/**
 * What happens to each PID where the packet bus starts passing packets again after a gap (a source
 * switch, or packets dropped up to a keyframe). Each PID starts at its next unit start: the tail of
 * a PES or section begun before the gap is dropped, since no decoder can use it. After a gap in a
 * stream that was already flowing, that first packet carries the adaptation field's
 * discontinuity_indicator (ISO 13818-1 §2.4.3.5): the continuity counter and, on the PCR PID, the
 * clock may jump there, and a TS client (a set-top box on /mpegts) takes it as intended.
 */
export class PidRestart {
  private readonly started = new Set<number>();
  private flag = false;

  /** The next packet of every PID starts over; `flag`: mark it as a discontinuity. */
  begin(flag: boolean): void {
    this.started.clear();
    this.flag = flag;
  }

  /** Passes the packets of `data` that may go, in order, to `out`. */
  filter(data: Buffer, out: (part: Buffer) => void): void {
    let run = 0;
    for (let o = 0; o < data.length; o += PACKET_SIZE) {
      const pid = pidOf(data, o);
      if (pid === NULL_PID || this.started.has(pid)) continue;
      const keep = !hasPayload(data, o) || startsUnit(data, o);
      if (keep) this.started.add(pid);
      if (keep && !this.flag) continue;
      if (o > run) out(data.subarray(run, o));
      run = o + PACKET_SIZE;
      if (keep) for (const part of flagDiscontinuity(data, o)) out(part);
    }
    if (run === 0) out(data);
    else if (run < data.length) out(data.subarray(run));
  }
}

/**
 * The packet at `o` with its discontinuity_indicator set: in place (a copy) when it has an adaptation
 * field to hold the flag, else by an adaptation-field-only packet of the same PID put before it.
 */
export function flagDiscontinuity(b: Buffer, o: number): Buffer[] {
  const packet = b.subarray(o, o + PACKET_SIZE);
  if (hasAdaptation(b, o) && b[o + 4]! > 0) {
    const copy = Buffer.from(packet);
    copy[5]! |= 0x80;
    return [copy];
  }
  const marker = Buffer.alloc(PACKET_SIZE, 0xff);
  marker[0] = SYNC_BYTE;
  marker[1] = b[o + 1]! & 0x1f;
  marker[2] = b[o + 2]!;
  // A packet without payload does not advance the counter (§2.4.3.3): it holds the one before the
  // packet's, which then follows it in order.
  const cc = hasPayload(b, o) ? (continuityOf(b, o) + 15) & 0x0f : continuityOf(b, o);
  marker[3] = 0x20 | cc;
  marker[4] = PACKET_SIZE - 5;
  marker[5] = 0x80;
  return [marker, packet];
}
