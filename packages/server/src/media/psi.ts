import { crc32Mpeg } from './crc32.js';

/** Program tables (ISO 13818-1 §2.4.4): the PAT names each program's PMT, the PMT lists its streams. */
export interface PatEntry {
  program: number;
  pmtPid: number;
}

export interface PmtStream {
  pid: number;
  streamType: number;
  /** ISO 639 language from the stream's language descriptor. */
  lang: string | undefined;
  /** Tags of the stream's descriptors, which tell what a private stream (type 0x06) holds. */
  descriptorTags: number[];
  /** The format_identifier of a registration descriptor (e.g. "Opus"), if any. */
  registration: string | undefined;
}

export interface Pmt {
  program: number;
  version: number;
  pcrPid: number;
  streams: PmtStream[];
}

/** Joins a section spread over packets; sections after the first in a packet are rare and ignored. */
export class SectionAssembler {
  private parts: Buffer[] = [];
  private have = 0;
  private need = 0;

  /** Feeds one packet's payload; returns a whole section (CRC checked) once one completes. */
  push(payload: Buffer, unitStart: boolean): Buffer | undefined {
    if (unitStart) {
      const pointer = payload[0] ?? 0;
      this.parts = [payload.subarray(1 + pointer)];
      this.have = this.parts[0]!.length;
      this.need = 0;
    } else if (this.parts.length > 0) {
      this.parts.push(payload);
      this.have += payload.length;
    } else {
      return undefined;
    }
    if (this.need === 0 && this.have >= 3) {
      const head = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
      this.need = 3 + (((head[1]! & 0x0f) << 8) | head[2]!);
    }
    if (this.need === 0 || this.have < this.need) return undefined;
    const section = (this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts)).subarray(
      0,
      this.need,
    );
    this.parts = [];
    this.have = 0;
    this.need = 0;
    // A section whose CRC fails is dropped: a corrupt PMT must not invent tracks.
    if (section.length < 12 || crc32Mpeg(section) !== 0) return undefined;
    return section;
  }
}

export function parsePat(section: Buffer): PatEntry[] | undefined {
  if (section[0] !== 0x00) return undefined;
  const entries: PatEntry[] = [];
  for (let i = 8; i + 4 <= section.length - 4; i += 4) {
    const program = (section[i]! << 8) | section[i + 1]!;
    const pid = ((section[i + 2]! & 0x1f) << 8) | section[i + 3]!;
    // Program 0 points at the network information table, not at a program.
    if (program !== 0) entries.push({ program, pmtPid: pid });
  }
  return entries;
}

export function parsePmt(section: Buffer): Pmt | undefined {
  if (section[0] !== 0x02) return undefined;
  const program = (section[3]! << 8) | section[4]!;
  const version = (section[5]! >> 1) & 0x1f;
  const pcrPid = ((section[8]! & 0x1f) << 8) | section[9]!;
  const programInfoLength = ((section[10]! & 0x0f) << 8) | section[11]!;
  const end = section.length - 4;
  const streams: PmtStream[] = [];
  for (let i = 12 + programInfoLength; i + 5 <= end;) {
    const streamType = section[i]!;
    const pid = ((section[i + 1]! & 0x1f) << 8) | section[i + 2]!;
    const infoLength = ((section[i + 3]! & 0x0f) << 8) | section[i + 4]!;
    const descriptors = section.subarray(i + 5, Math.min(end, i + 5 + infoLength));
    streams.push({ pid, streamType, ...readDescriptors(descriptors) });
    i += 5 + infoLength;
  }
  return { program, version, pcrPid, streams };
}

function readDescriptors(d: Buffer): Pick<PmtStream, 'lang' | 'descriptorTags' | 'registration'> {
  let lang: string | undefined;
  let registration: string | undefined;
  const descriptorTags: number[] = [];
  for (let i = 0; i + 2 <= d.length;) {
    const tag = d[i]!;
    const length = d[i + 1]!;
    const body = d.subarray(i + 2, i + 2 + length);
    descriptorTags.push(tag);
    // 0x0A: ISO_639_language_descriptor; 0x05: registration_descriptor.
    if (tag === 0x0a && body.length >= 3) lang = body.subarray(0, 3).toString('latin1');
    if (tag === 0x05 && body.length >= 4) registration = body.subarray(0, 4).toString('latin1');
    i += 2 + length;
  }
  return { lang: lang && /^[a-z]{3}$/i.test(lang) ? lang : undefined, descriptorTags, registration };
}
