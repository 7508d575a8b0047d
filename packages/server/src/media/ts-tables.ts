import { crc32Mpeg } from './crc32.js';
import { PACKET_SIZE, SYNC_BYTE } from './ts-packet.js';

/** PID of the DVB service description table (EN 300 468 §5.1.3). */
export const SDT_PID = 0x11;
/** transport_stream_id written in the PAT and SDT, and the network id ffmpeg also uses. */
const TRANSPORT_STREAM_ID = 1;
const ORIGINAL_NETWORK_ID = 0xff01;

export interface ProgramStream {
  pid: number;
  streamType: number;
}

/** A PAT listing one program (ISO 13818-1 §2.4.4.3). */
export function patSection(program: number, pmtPid: number): Buffer {
  return section(0x00, 0xb0, TRANSPORT_STREAM_ID, [
    program >> 8,
    program & 0xff,
    0xe0 | (pmtPid >> 8),
    pmtPid & 0xff,
  ]);
}

/** A PMT without descriptors (ISO 13818-1 §2.4.4.8). */
export function pmtSection(program: number, pcrPid: number, streams: ProgramStream[]): Buffer {
  const body = [0xe0 | (pcrPid >> 8), pcrPid & 0xff, 0xf0, 0x00];
  for (const s of streams) body.push(s.streamType, 0xe0 | (s.pid >> 8), s.pid & 0xff, 0xf0, 0x00);
  return section(0x02, 0xb0, program, body);
}

/**
 * An SDT "actual" (EN 300 468 §5.2.3) naming one service: set-top boxes and ffprobe show
 * `serviceName` as the channel and `provider` as who sends it. Service type 1 is digital
 * television, 2 digital radio.
 */
export function sdtSection(o: {
  program: number;
  provider: string;
  serviceName: string;
  radio: boolean;
}): Buffer {
  const provider = dvbText(o.provider, 64);
  const name = dvbText(o.serviceName, 128);
  const descriptor = [0x48, 3 + provider.length + name.length, o.radio ? 0x02 : 0x01];
  descriptor.push(provider.length, ...provider, name.length, ...name);
  const loopLength = descriptor.length;
  const body = [ORIGINAL_NETWORK_ID >> 8, ORIGINAL_NETWORK_ID & 0xff, 0xff];
  // EIT flags off (0xfc), running_status 4 (running), not scrambled.
  body.push(o.program >> 8, o.program & 0xff, 0xfc, 0x80 | (loopLength >> 8), loopLength & 0xff);
  return section(0x42, 0xf0, TRANSPORT_STREAM_ID, [...body, ...descriptor]);
}

/**
 * Cuts a section into packets of `pid` with counters `firstCc`, `firstCc + 1`…, the rest of the
 * last packet stuffed with 0xff. With `discontinuity`, the first packet's adaptation field says the
 * counter may jump there (ISO 13818-1 §2.4.3.5): a copy of the tables put in front of a segment
 * follows whatever packet of that PID came before it.
 */
export function sectionPackets(
  pid: number,
  sectionBytes: Buffer,
  firstCc: number,
  discontinuity = false,
): Buffer {
  const count = sectionPacketCount(sectionBytes, discontinuity);
  const out = Buffer.alloc(count * PACKET_SIZE, 0xff);
  let written = 0;
  for (let i = 0; i < count; i++) {
    const o = i * PACKET_SIZE;
    const flagged = i === 0 && discontinuity;
    out[o] = SYNC_BYTE;
    out[o + 1] = (i === 0 ? 0x40 : 0) | ((pid >> 8) & 0x1f);
    out[o + 2] = pid & 0xff;
    out[o + 3] = (flagged ? 0x30 : 0x10) | ((firstCc + i) & 0x0f);
    let p = o + 4;
    if (flagged) {
      out[p++] = 1; // adaptation_field_length
      out[p++] = 0x80; // discontinuity_indicator
    }
    if (i === 0) out[p++] = 0; // pointer_field: the section starts right here
    const room = o + PACKET_SIZE - p;
    written += sectionBytes.copy(out, p, written, Math.min(sectionBytes.length, written + room));
  }
  return out;
}

/** How many packets `sectionPackets` makes of a section. */
export function sectionPacketCount(sectionBytes: Buffer, discontinuity = false): number {
  const firstRoom = PACKET_SIZE - 5 - (discontinuity ? 2 : 0);
  if (sectionBytes.length <= firstRoom) return 1;
  return 1 + Math.ceil((sectionBytes.length - firstRoom) / (PACKET_SIZE - 4));
}

/** A long-form section with its CRC: one section, version 0, current. */
function section(tableId: number, flags: number, idExtension: number, body: number[]): Buffer {
  const length = 5 + body.length + 4;
  const bytes = Buffer.from([
    tableId,
    flags | (length >> 8),
    length & 0xff,
    idExtension >> 8,
    idExtension & 0xff,
    0xc1,
    0x00,
    0x00,
    ...body,
    0,
    0,
    0,
    0,
  ]);
  bytes.writeUInt32BE(crc32Mpeg(bytes, 0, bytes.length - 4), bytes.length - 4);
  return bytes;
}

/**
 * A DVB string (EN 300 468 Annex A): printable ASCII as is (the default table agrees with it),
 * anything else as UTF-8 behind its selector byte 0x15; cut to `max` bytes.
 */
function dvbText(text: string, max: number): number[] {
  if (/^[\x20-\x7e]*$/.test(text)) return [...Buffer.from(text.slice(0, max), 'latin1')];
  const bytes = [0x15];
  for (const char of text) {
    const encoded = Buffer.from(char, 'utf8');
    // Whole characters only: a cut UTF-8 sequence would show as garbage on a receiver.
    if (bytes.length + encoded.length > max) break;
    bytes.push(...encoded);
  }
  return bytes;
}
