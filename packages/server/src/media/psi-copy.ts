import { SectionAssembler } from './psi.js';
import { continuityOf, PAT_PID } from './ts-packet.js';
import { SDT_PID, sectionPacketCount, sectionPackets } from './ts-tables.js';

const EMPTY = Buffer.alloc(0);
type Counters = ReadonlyMap<number, number>;
/** table_id of the SDT describing this transport stream ("actual"); 0x46 describes others. */
const SDT_ACTUAL = 0x42;

/**
 * The latest PAT, PMT and SDT of a stream, and the continuity counter each of their PIDs last had,
 * to open each HLS segment and each new continuous-TS client with the program tables.
 *
 * A copy that kept the source's own counters would clash with the packets around it (ISO 13818-1
 * §2.4.3.3: each packet of a PID counts one up from the one before). So the copy is renumbered:
 * its packets end on the counter the source's last packet of that PID had, so the source's next
 * one follows them, and its first packet carries the discontinuity_indicator, since what comes
 * before it is the end of another segment, another copy, or nothing. Each segment alone, segments
 * played one after another, and a client's stream from its first byte count without an error.
 *
 * "Last" means before the packet a segment starts at, not before the end of the chunk being read:
 * the demuxer reads a whole chunk (64 KB from an HTTP source) before the segmenter cuts it, and
 * tables later in the chunk belong after the cut. So the counters are noted at each access unit of
 * the primary track, in the order the segmenter takes them from `TsDemux.frames`.
 */
export class PsiCopy {
  private counters = new Map<number, number>();
  /** Counters at each primary access unit begun and not yet decided, oldest first. */
  private unitsBegun: Counters[] = [];
  /** Counters at the decided units: the last ones line up with the demuxer's queued frames. */
  private unitsDecided: Counters[] = [];
  private readonly sdtSections = new SectionAssembler();
  private pat: Buffer | undefined;
  private pmt: { pid: number; section: Buffer } | undefined;
  private sdt: Buffer | undefined;

  /** Notes a packet of the PAT, the PMT or the SDT PID; reads the SDT from it. */
  notePacket(b: Buffer, o: number, pid: number, payload: Buffer, unitStart: boolean): void {
    // Copied on write: the maps noted at access units stay as they were.
    this.counters = new Map(this.counters).set(pid, continuityOf(b, o));
    if (pid !== SDT_PID) return;
    const section = this.sdtSections.push(payload, unitStart);
    if (section?.[0] === SDT_ACTUAL && !this.sdt?.equals(section)) this.sdt = Buffer.from(section);
  }

  /** A PES of the primary track starts here. */
  unitBegun(): void {
    this.unitsBegun.push(this.counters);
  }

  /** The oldest begun unit is decided and queued as a frame behind `queued` others. */
  unitDecided(queued: number): void {
    this.unitsDecided.push(this.unitsBegun.shift() ?? this.counters);
    // The frame the segmenter took last stays, for the segment it may be starting.
    const keep = queued + 2;
    if (this.unitsDecided.length > keep) this.unitsDecided = this.unitsDecided.slice(-keep);
  }

  /** The tracks changed and queued frames were dropped. */
  resetUnits(): void {
    this.unitsBegun = [];
    this.unitsDecided = [];
  }

  setPat(section: Buffer): void {
    this.pat = section;
  }

  setPmt(pid: number, section: Buffer): void {
    this.pmt = { pid, section };
  }

  /**
   * PAT, PMT (of `pmtPid`, the one the PAT names) and SDT if the source sends one, numbered for a
   * segment starting at the frame taken last, `queued` frames still waiting; empty until both
   * tables came.
   */
  packets(pmtPid: number | undefined, queued: number): Buffer {
    if (!this.pat || !this.pmt || this.pmt.pid !== pmtPid) return EMPTY;
    const taken = this.unitsDecided.length - queued;
    const counters = taken > 0 ? this.unitsDecided[taken - 1]! : this.counters;
    const tables: [number, Buffer][] = [
      [PAT_PID, this.pat],
      [this.pmt.pid, this.pmt.section],
    ];
    if (this.sdt) tables.push([SDT_PID, this.sdt]);
    return Buffer.concat(
      tables.map(([pid, section]) => {
        const count = sectionPacketCount(section, true);
        const last = counters.get(pid) ?? this.counters.get(pid) ?? count - 1;
        return sectionPackets(pid, section, last - count + 1, true);
      }),
    );
  }
}
