import { crc32Mpeg } from './crc32.js';
import { parsePat, parsePmt, SectionAssembler } from './psi.js';
import { classifyStream } from './stream-types.js';
import { NULL_PID, PACKET_SIZE, PAT_PID, payloadOffset, pidOf, startsUnit } from './ts-packet.js';

/**
 * Keeps one program of a multi-program transport stream (the source's `program` option, spec 001
 * §3; the first program when only `pids` is given): its PMT and elementary streams pass, every
 * other PID is dropped, and the PAT is rewritten to list that program alone. With `pids`, only
 * those elementary streams pass (and the PCR's), and the PMT is rewritten to list only them.
 * With `subtitles` false (the source's `allow_subtitles=false`), DVB subtitle and teletext tracks
 * are dropped the same way.
 */
export class ProgramFilter {
  private readonly patSections = new SectionAssembler();
  private readonly pmtSections = new SectionAssembler();
  private pmtPid: number | undefined;
  private allowed = new Set<number>();
  private pat: Buffer | undefined;
  private pmt: Buffer | undefined;
  private chosen: number | undefined;

  constructor(
    private readonly program: number | undefined,
    private readonly pids?: ReadonlySet<number>,
    private readonly subtitles = true,
  ) {}

  /** The packets of the chosen program from an aligned chunk (a new buffer when any were dropped). */
  filter(chunk: Buffer): Buffer {
    const kept: Buffer[] = [];
    for (let o = 0; o < chunk.length; o += PACKET_SIZE) {
      const pid = pidOf(chunk, o);
      const packet = chunk.subarray(o, o + PACKET_SIZE);
      if (pid === PAT_PID) {
        this.readPat(packet);
        if (this.pat && startsUnit(chunk, o)) kept.push(withSection(packet, this.pat));
      } else if (pid === this.pmtPid) {
        this.readPmt(packet);
        if (!this.pmt) kept.push(packet);
        else if (startsUnit(chunk, o)) kept.push(withSection(packet, this.pmt));
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
    const entry =
      section && parsePat(section)?.find((p) => this.program === undefined || p.program === this.program);
    if (!entry) return;
    this.chosen = entry.program;
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
      entry.program >> 8,
      entry.program & 0xff,
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
    if (!pmt || pmt.program !== this.chosen) return;
    const streams = pmt.streams
      .filter((s) => this.subtitles || classifyStream(s)?.content !== 'text')
      .map((s) => s.pid)
      .filter((p) => !this.pids || this.pids.has(p));
    this.allowed = new Set([pmt.pcrPid, ...streams].filter((p) => p !== NULL_PID));
    const rewrite = this.pids !== undefined || streams.length < pmt.streams.length;
    this.pmt = rewrite ? keepStreams(section, new Set(streams)) : undefined;
  }
}

/** The original packet's header (PID, continuity counter) with `section` as its only payload. */
export function withSection(original: Buffer, section: Buffer): Buffer {
  const packet = Buffer.alloc(PACKET_SIZE, 0xff);
  original.copy(packet, 0, 0, 4);
  packet[3] = (packet[3]! & 0x0f) | 0x10; // payload only
  packet[4] = 0; // pointer_field
  section.copy(packet, 5);
  return packet;
}

/**
 * The PMT section with only the elementary streams in `allowed`, and PCR_PID set to `pcrPid` when
 * given (the audio-only variant has none); undefined when it won't fit one packet.
 */
export function keepStreams(
  section: Buffer,
  allowed: ReadonlySet<number>,
  pcrPid?: number,
): Buffer | undefined {
  const infoLength = ((section[10]! & 0x0f) << 8) | section[11]!;
  const head = Buffer.from(section.subarray(0, 12 + infoLength));
  if (pcrPid !== undefined) {
    head[8] = (head[8]! & 0xe0) | (pcrPid >> 8);
    head[9] = pcrPid & 0xff;
  }
  const entries: Buffer[] = [];
  for (let i = 12 + infoLength; i + 5 <= section.length - 4;) {
    const pid = ((section[i + 1]! & 0x1f) << 8) | section[i + 2]!;
    const length = 5 + (((section[i + 3]! & 0x0f) << 8) | section[i + 4]!);
    if (allowed.has(pid)) entries.push(section.subarray(i, i + length));
    i += length;
  }
  const out = Buffer.concat([head, ...entries, Buffer.alloc(4)]);
  if (out.length > PACKET_SIZE - 5) return undefined;
  const sectionLength = out.length - 3;
  out[1] = (out[1]! & 0xf0) | (sectionLength >> 8);
  out[2] = sectionLength & 0xff;
  out.writeUInt32BE(crc32Mpeg(out, 0, out.length - 4), out.length - 4);
  return out;
}

/** The `pids` option: comma-separated PIDs, only 1–8191 kept (spec 001 §5). */
export function parsePids(text: string | undefined): Set<number> | undefined {
  const pids = (text ?? '')
    .split(',')
    .map((p) => Number.parseInt(p.trim(), 10))
    .filter((p) => Number.isInteger(p) && p > 0 && p < 8192);
  return pids.length > 0 ? new Set(pids) : undefined;
}
