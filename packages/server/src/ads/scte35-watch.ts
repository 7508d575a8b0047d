import type { PacketBus } from '../media/packet-bus.js';
import { parsePat, parsePmt, SectionAssembler } from '../media/psi.js';
import { PACKET_SIZE, PAT_PID, payloadOffset, pidOf, startsUnit } from '../media/ts-packet.js';
import { parseSpliceInfo, SCTE35_STREAM_TYPE, type SpliceInfo } from './scte35.js';
import { cueOf, type Scte35Cue } from './scte35-cue.js';

/** SCTE 35 PIDs followed at most (a PMT lists one per program, rarely more). */
const MAX_SCTE35_PIDS = 8;
/** Cues remembered to drop repeats (encoders send each splice_insert several times before its point). */
const RECENT_CUES = 32;

export interface Scte35Listener {
  /** A new cue (repeats of the same event and direction dropped); `info` is the whole section. */
  cue: (cue: Scte35Cue, info: SpliceInfo) => void;
  /** A section that could not be read: what was wrong (the stream goes on). */
  bad?: (reason: string) => void;
}

/**
 * Follows the SCTE 35 sections (PMT stream_type 0x86) in a stream's MPEG-TS packets: the PAT
 * names the PMT, the PMT the SCTE 35 PIDs, each PID's sections are joined (psi.ts, CRC checked)
 * and parsed (scte35.ts). Bounded: at most MAX_SCTE35_PIDS PIDs and one section (≤ 4 KB) being
 * joined on each; a broken section is reported and dropped, never thrown.
 */
export class Scte35Watch {
  private pmtPid: number | undefined;
  private readonly pat = new SectionAssembler();
  private readonly pmt = new SectionAssembler();
  private readonly sections = new Map<number, SectionAssembler>();
  private readonly recent: string[] = [];
  private lastPmt: Buffer | undefined;

  constructor(private readonly listener: Scte35Listener) {}

  /** Whole, aligned TS packets (what a PacketBus subscriber gets). */
  push(packets: Buffer): void {
    for (let o = 0; o + PACKET_SIZE <= packets.length; o += PACKET_SIZE) {
      const pid = pidOf(packets, o);
      if (pid !== PAT_PID && pid !== this.pmtPid && !this.sections.has(pid)) continue;
      const start = payloadOffset(packets, o);
      if (start < 0) continue;
      const payload = packets.subarray(start, o + PACKET_SIZE);
      const unitStart = startsUnit(packets, o);
      if (pid === PAT_PID) this.onPat(this.pat.push(payload, unitStart));
      else if (pid === this.pmtPid) this.onPmt(this.pmt.push(payload, unitStart));
      else {
        const section = this.sections.get(pid)!.push(payload, unitStart);
        if (section) this.onSection(section);
      }
    }
  }

  private onPat(section: Buffer | undefined): void {
    const first = section ? parsePat(section)?.find((p) => p.program !== 0) : undefined;
    if (!first || first.pmtPid === this.pmtPid) return;
    this.pmtPid = first.pmtPid;
    this.lastPmt = undefined;
  }

  private onPmt(section: Buffer | undefined): void {
    if (!section || this.lastPmt?.equals(section)) return;
    this.lastPmt = Buffer.from(section);
    const pids = (parsePmt(section)?.streams ?? [])
      .filter((s) => s.streamType === SCTE35_STREAM_TYPE)
      .map((s) => s.pid)
      .slice(0, MAX_SCTE35_PIDS);
    for (const pid of [...this.sections.keys()]) if (!pids.includes(pid)) this.sections.delete(pid);
    for (const pid of pids) if (!this.sections.has(pid)) this.sections.set(pid, new SectionAssembler());
  }

  private onSection(section: Buffer): void {
    const parsed = parseSpliceInfo(section);
    if ('error' in parsed) {
      this.listener.bad?.(parsed.error);
      return;
    }
    const cue = cueOf(parsed.info);
    if (!cue) return;
    const key = `${cue.eventId}:${cue.kind}`;
    if (this.recent.includes(key)) return;
    this.recent.push(key);
    if (this.recent.length > RECENT_CUES) this.recent.shift();
    this.listener.cue(cue, parsed.info);
  }
}

/**
 * The hook for the inserter: `listener` hears the SCTE 35 cues of the stream on `bus` (a live
 * MPEG-TS source: UDP, HTTP MPEG-TS, SRT, a publish over HTTP …) until the returned function is called.
 */
export function watchScte35(bus: PacketBus, listener: Scte35Listener): () => void {
  const watch = new Scte35Watch(listener);
  return bus.subscribe((packets) => watch.push(packets));
}
