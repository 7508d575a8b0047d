import { crc32Mpeg } from './crc32.js';
import { parsePat, parsePmt, SectionAssembler } from './psi.js';
import { NULL_PID, PACKET_SIZE, PAT_PID, payloadOffset, pidOf, startsUnit } from './ts-packet.js';

/**
 * Keeps one program of a multi-program transport stream (the source's `program` option, spec 001
 * §3): its PMT and elementary streams pass, every other PID is dropped, and the PAT is rewritten to
 * list that program alone, so players and the segmenter see a single-program stream.
 */
export class ProgramFilter {
  private readonly patSections = new SectionAssembler();
  private readonly pmtSections = new SectionAssembler();
  private pmtPid: number | undefined;
  private allowed = new Set<number>();
  private pat: Buffer | undefined;

  constructor(private readonly program: number) {}

  /** The packets of the chosen program from an aligned chunk (a new buffer when any were dropped). */
  filter(chunk: Buffer): Buffer {
    const kept: Buffer[] = [];
    for (let o = 0; o < chunk.length; o += PACKET_SIZE) {
      const pid = pidOf(chunk, o);
      const packet = chunk.subarray(o, o + PACKET_SIZE);
      if (pid === PAT_PID) {
        this.readPat(packet);
        if (this.pat && startsUnit(chunk, o)) kept.push(this.rewrittenPat(packet));
      } else if (pid === this.pmtPid) {
        this.readPmt(packet);
        kept.push(packet);
      } else if (this.allowed.has(pid)) {
        kept.push(packet);
      }
    }
    return kept.length * PACKET_SIZE === chunk.length ? chunk : Buffer.concat(kept);
  }

  private readPat(packet: Buffer): void {
    const start = payloadOffset(packet, 0);
    if (start < 0) return;
    const section = this.patSections.push(packet.subarray(start), startsUnit(packet, 0));
    const entry = section && parsePat(section)?.find((p) => p.program === this.program);
    if (!entry) return;
    if (entry.pmtPid !== this.pmtPid) this.allowed = new Set();
    this.pmtPid = entry.pmtPid;
    // A PAT listing only this program: program_number, then its PMT PID (ISO 13818-1 Table 2-30).
    const body = Buffer.from([
      0x00,
      0xb0,
      13,
      section[3]!,
      section[4]!,
      section[5]!,
      0x00,
      0x00,
      this.program >> 8,
      this.program & 0xff,
      0xe0 | (entry.pmtPid >> 8),
      entry.pmtPid & 0xff,
      0,
      0,
      0,
      0,
    ]);
    body.writeUInt32BE(crc32Mpeg(body, 0, body.length - 4), body.length - 4);
    this.pat = body;
  }

  private readPmt(packet: Buffer): void {
    const start = payloadOffset(packet, 0);
    if (start < 0) return;
    const section = this.pmtSections.push(packet.subarray(start), startsUnit(packet, 0));
    const pmt = section && parsePmt(section);
    if (!pmt || pmt.program !== this.program) return;
    this.allowed = new Set([pmt.pcrPid, ...pmt.streams.map((s) => s.pid)].filter((p) => p !== NULL_PID));
  }

  /** The original packet's header (its continuity counter) with the one-program PAT as payload. */
  private rewrittenPat(original: Buffer): Buffer {
    const packet = Buffer.alloc(PACKET_SIZE, 0xff);
    original.copy(packet, 0, 0, 4);
    packet[3] = (packet[3]! & 0x0f) | 0x10; // payload only
    packet[4] = 0; // pointer_field
    this.pat!.copy(packet, 5);
    return packet;
  }
}
