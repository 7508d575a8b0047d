import { crc32Mpeg } from '../src/media/crc32.js';
import { pesHeader } from '../src/media/ts-pes.js';

/**
 * A subtitle-only MPEG-TS file, what a DVB headend's subtitle PIDs carry, for ffmpeg to mux beside
 * a test pattern (ffmpeg 5.1 can't encode text into either format): a DVB subtitle track (EN 300
 * 743, language `fra`) and an EBU teletext subtitle page 888 (EN 300 472 / EN 300 706, language
 * `deu`) saying "Line N" at second N, one display set and one page a second.
 */
export const DVBSUB_PID = 0x200;
export const TELETEXT_PID = 0x201;
export const PMT_PID = 0x1000;

export function subtitleTs(seconds: number): Buffer {
  const packets: Buffer[] = [];
  const writer = new SubtitlePackets();
  const pat = section(0x00, 1, [0, 1, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff]);
  for (let s = 0; s < seconds; s++) {
    packets.push(writer.psi(0, pat), writer.psi(PMT_PID, subtitlePmt(1, DVBSUB_PID)));
    packets.push(...writer.second(90_000 * (s + 1), `Line ${s}`));
  }
  return Buffer.concat(packets);
}

/** A PMT of `program` with the PCR on `pcrPid`, `video` (H.264) first when given, then both subtitle tracks. */
export function subtitlePmt(program: number, pcrPid: number, video?: number): Buffer {
  const subtitling = [0x59, 8, ...ascii('fra'), 0x10, 0, 1, 0, 1]; // normal subtitles, page 1
  const teletext = [0x56, 5, ...ascii('deu'), (2 << 3) | 0, 0x88]; // subtitle page, magazine 8, page 88
  const picture = video === undefined ? [] : [0x1b, 0xe0 | (video >> 8), video & 0xff, 0xf0, 0];
  return section(0x02, program, [
    0xe0 | (pcrPid >> 8),
    pcrPid & 0xff,
    0xf0,
    0,
    ...picture,
    ...stream(DVBSUB_PID, subtitling),
    ...stream(TELETEXT_PID, teletext),
  ]);
}

/** TS packets of the subtitle PIDs, each with its own continuity counter. */
export class SubtitlePackets {
  private readonly cc = new Map<number, number>();

  /** One second's display set and teletext page, due at `pts` (90 kHz). */
  second(pts: number, text: string): Buffer[] {
    const dvb = dvbDisplaySet();
    return [
      this.packet(DVBSUB_PID, Buffer.concat([pesHeader(0xbd, pts, undefined, dvb.length), dvb])),
      this.packet(TELETEXT_PID, teletextPes(pts, text)),
    ];
  }

  /** A section in one packet, the rest stuffed with 0xff. */
  psi(pid: number, section: Buffer): Buffer {
    const out = Buffer.alloc(188, 0xff);
    out.set([0x47, 0x40 | (pid >> 8), pid & 0xff, 0x10 | this.next(pid), 0]);
    section.copy(out, 5);
    return out;
  }

  /** A whole PES in one packet, padded in the adaptation field (ISO 13818-1 §2.4.3.5). */
  private packet(pid: number, pes: Buffer): Buffer {
    const out = Buffer.alloc(188, 0xff);
    const stuffing = 184 - pes.length;
    out.set([0x47, 0x40 | (pid >> 8), pid & 0xff, (stuffing === 0 ? 0x10 : 0x30) | this.next(pid)]);
    if (stuffing > 0) out[4] = stuffing - 1;
    if (stuffing > 1) out[5] = 0;
    pes.copy(out, 4 + stuffing);
    return out;
  }

  private next(pid: number): number {
    const counter = this.cc.get(pid) ?? 0;
    this.cc.set(pid, (counter + 1) & 15);
    return counter;
  }
}

const ascii = (text: string) => [...Buffer.from(text, 'latin1')];

function stream(pid: number, descriptor: number[]): number[] {
  return [0x06, 0xe0 | (pid >> 8), pid & 0xff, 0xf0, descriptor.length, ...descriptor];
}

function section(tableId: number, idExtension: number, body: number[]): Buffer {
  const length = 5 + body.length + 4;
  const out = Buffer.from([
    tableId,
    0xb0 | (length >> 8),
    length & 0xff,
    idExtension >> 8,
    idExtension & 0xff,
    0xc1,
    0,
    0,
    ...body,
    0,
    0,
    0,
    0,
  ]);
  out.writeUInt32BE(crc32Mpeg(out, 0, out.length - 4), out.length - 4);
  return out;
}

/** A page composition (mode change, no regions: a clear screen) and the end of the display set. */
function dvbDisplaySet(): Buffer {
  const page = [0x0f, 0x10, 0, 1, 0, 2, 5, 0x08];
  const end = [0x0f, 0x80, 0, 1, 0, 0];
  return Buffer.from([0x20, 0x00, ...page, ...end, 0xff]);
}

/** Hamming 8/4 code words (EN 300 706 §8.2), LSB first on the line. */
const HAMMING = [
  0x15, 0x02, 0x49, 0x5e, 0x64, 0x73, 0x38, 0x2f, 0xd0, 0xc7, 0x8c, 0x9b, 0xa1, 0xb6, 0xfd, 0xea,
];
/** DVB carries each byte of the line in transmission order, i.e. bit-reversed (EN 300 472 §4.1). */
const reverse = (b: number) => {
  let r = 0;
  for (let i = 0; i < 8; i++) r |= ((b >> i) & 1) << (7 - i);
  return r;
};
const oddParity = (c: number) => {
  let ones = 0;
  for (let i = 0; i < 7; i++) ones += (c >> i) & 1;
  return ones % 2 === 0 ? c | 0x80 : c;
};

/** A teletext packet (row `row` of magazine 8) as a DVB data unit of 46 bytes. */
function teletextUnit(row: number, lineOffset: number, data: number[]): number[] {
  const magazine = 0; // magazine 8 is sent as 0
  const address = [HAMMING[magazine | ((row & 1) << 3)]!, HAMMING[row >> 1]!];
  const line = [...address, ...data].map(reverse);
  return [0x03, 0x2c, 0xe0 | lineOffset, 0xe4, ...line];
}

/** Page 888's header (erase page, subtitle) and row 22 with `text` boxed, as a teletext PES. */
function teletextPes(pts: number, text: string): Buffer {
  const h = (n: number) => HAMMING[n]!;
  // page units 8, tens 8, subcodes 0, C4 erase (S2 bit 4), C6 subtitle (S4 bit 4), C7–C14 clear
  const header = [h(8), h(8), h(0), h(8), h(0), h(8), h(0), h(0), ...padded('', 32).map(oddParity)];
  const boxed = [0x0b, 0x0b, ...ascii(text), 0x0a, 0x0a];
  const row = padded(boxed, 40).map(oddParity);
  // A time-filling header (page FF) ends page 888 at once: decoders show a page when the next
  // header of its magazine comes. Three units make the PES 184 bytes, as decoders (ffmpeg's) want.
  const filler = [h(15), h(15), ...header.slice(2)];
  const units = [...teletextUnit(0, 7, header), ...teletextUnit(22, 8, row), ...teletextUnit(0, 9, filler)];
  const payload = Buffer.from([0x10, ...units]);
  // EN 300 472 §4.2: PES_header_data_length 0x24 (a 45-byte header), stuffing after the PTS.
  const head = pesHeader(0xbd, pts, undefined, payload.length + 31);
  head[8] = 0x24;
  return Buffer.concat([head, Buffer.alloc(31, 0xff), payload]);
}

function padded(content: string | number[], length: number): number[] {
  const bytes = typeof content === 'string' ? ascii(content) : content;
  return [...bytes, ...Array<number>(length - bytes.length).fill(0x20)];
}
