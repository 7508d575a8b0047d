import { SectionAssembler } from './psi.js';
import { continuityOf, PAT_PID } from './ts-packet.js';
import { SDT_PID, sectionPacketCount, sectionPackets } from './ts-tables.js';

const EMPTY = Buffer.alloc(0);
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
 */
export class PsiCopy {
  private readonly counters = new Map<number, number>();
  private readonly sdtSections = new SectionAssembler();
  private pat: Buffer | undefined;
  private pmt: { pid: number; section: Buffer } | undefined;
  private sdt: Buffer | undefined;

  /** Notes a packet of the PAT, the PMT or the SDT PID; reads the SDT from it. */
  notePacket(b: Buffer, o: number, pid: number, payload: Buffer, unitStart: boolean): void {
    this.counters.set(pid, continuityOf(b, o));
    if (pid !== SDT_PID) return;
    const section = this.sdtSections.push(payload, unitStart);
    if (section?.[0] === SDT_ACTUAL && !this.sdt?.equals(section)) this.sdt = Buffer.from(section);
  }

  setPat(section: Buffer): void {
    this.pat = section;
  }

  setPmt(pid: number, section: Buffer): void {
    this.pmt = { pid, section };
  }

  /** PAT, PMT (of `pmtPid`, the one the PAT names) and SDT if the source sends one; empty until both tables came. */
  packets(pmtPid: number | undefined): Buffer {
    if (!this.pat || !this.pmt || this.pmt.pid !== pmtPid) return EMPTY;
    const tables: [number, Buffer][] = [
      [PAT_PID, this.pat],
      [this.pmt.pid, this.pmt.section],
    ];
    if (this.sdt) tables.push([SDT_PID, this.sdt]);
    return Buffer.concat(
      tables.map(([pid, section]) => {
        const count = sectionPacketCount(section, true);
        const last = this.counters.get(pid) ?? count - 1;
        return sectionPackets(pid, section, last - count + 1, true);
      }),
    );
  }
}
