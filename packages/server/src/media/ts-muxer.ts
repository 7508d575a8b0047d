import { crc32Mpeg } from './crc32.js';
import { PACKET_SIZE, SYNC_BYTE } from './ts-packet.js';

/** Fixed PIDs of what this muxer writes (the values ffmpeg uses, so both outputs look alike). */
export const PMT_PID = 0x1000;
export const VIDEO_PID = 0x100;
export const AUDIO_PID = 0x101;
const STREAM_TYPE_H264 = 0x1b;
const STREAM_TYPE_AAC_ADTS = 0x0f;
const TS_WRAP = 2 ** 33;

/**
 * Writes H.264 (Annex B) and AAC (ADTS) access units as MPEG-TS (ISO 13818-1): the program tables
 * before each keyframe, one PES per access unit, the PCR on the video PID (else audio), the
 * random-access flag on keyframes. Timestamps are in 90 kHz ticks.
 */
export class TsMuxer {
  private readonly continuity = new Map<number, number>();
  private audioSinceTables = 0;

  constructor(
    private readonly out: (packets: Buffer) => void,
    private readonly tracks: { video: boolean; audio: boolean },
  ) {}

  writeVideo(annexB: Buffer, dts: number, pts: number, keyframe: boolean): void {
    if (keyframe) this.out(this.tables());
    const header = pesHeader(0xe0, pts, dts, 0);
    this.out(this.packetize(VIDEO_PID, header, annexB, { pcr: dts, randomAccess: keyframe }));
  }

  writeAudio(adts: Buffer, pts: number): void {
    // Without video the tables go out every 50 audio frames (about a second), for joining players.
    if (!this.tracks.video && this.audioSinceTables++ % 50 === 0) this.out(this.tables());
    const header = pesHeader(0xc0, pts, undefined, adts.length);
    const pcr = this.tracks.video ? undefined : pts;
    this.out(this.packetize(AUDIO_PID, header, adts, { pcr, randomAccess: !this.tracks.video }));
  }

  /** PAT and PMT, one packet each. */
  private tables(): Buffer {
    const pat = section(0x00, 1, [0x00, 0x01, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff]);
    const pcrPid = this.tracks.video ? VIDEO_PID : AUDIO_PID;
    const body = [0xe0 | (pcrPid >> 8), pcrPid & 0xff, 0xf0, 0x00];
    if (this.tracks.video) body.push(STREAM_TYPE_H264, 0xe0 | (VIDEO_PID >> 8), VIDEO_PID & 0xff, 0xf0, 0x00);
    if (this.tracks.audio)
      body.push(STREAM_TYPE_AAC_ADTS, 0xe0 | (AUDIO_PID >> 8), AUDIO_PID & 0xff, 0xf0, 0x00);
    const pmt = section(0x02, 1, body);
    return Buffer.concat([this.psiPacket(0, pat), this.psiPacket(PMT_PID, pmt)]);
  }

  private psiPacket(pid: number, sectionBytes: Buffer): Buffer {
    const packet = Buffer.alloc(PACKET_SIZE, 0xff);
    this.header(packet, pid, true, false);
    packet[4] = 0; // pointer_field
    sectionBytes.copy(packet, 5);
    return packet;
  }

  private packetize(
    pid: number,
    header: Buffer,
    payload: Buffer,
    options: { pcr?: number; randomAccess: boolean },
  ): Buffer {
    const pes = Buffer.concat([header, payload]);
    // +8: the first packet's adaptation field (flags and PCR) may push one more packet.
    const out = Buffer.alloc(Math.ceil((pes.length + 8) / 184) * PACKET_SIZE);
    let o = 0;
    let written = 0;
    for (let first = true; written < pes.length; first = false) {
      let field: number[] = [];
      let hasField = false;
      if (first && (options.pcr !== undefined || options.randomAccess)) {
        field = [(options.randomAccess ? 0x40 : 0) | (options.pcr !== undefined ? 0x10 : 0)];
        if (options.pcr !== undefined) field.push(...pcrBytes(options.pcr));
        hasField = true;
      }
      let room = 184 - (hasField ? field.length + 1 : 0);
      const left = pes.length - written;
      if (left < room) {
        // The payload must end the packet: what is short is adaptation-field stuffing.
        let stuffing = room - left;
        if (!hasField) {
          hasField = true;
          stuffing -= 1; // the adaptation_field_length byte
          if (stuffing > 0) {
            field = [0x00];
            stuffing -= 1;
          }
        }
        for (let i = 0; i < stuffing; i++) field.push(0xff);
        room = left;
      }
      const packet = out.subarray(o, o + PACKET_SIZE);
      this.header(packet, pid, first, hasField);
      let p = 4;
      if (hasField) {
        packet[p++] = field.length;
        for (const byte of field) packet[p++] = byte;
      }
      pes.copy(packet, p, written, written + room);
      written += room;
      o += PACKET_SIZE;
    }
    return out.subarray(0, o);
  }

  private header(packet: Buffer, pid: number, unitStart: boolean, adaptation: boolean): void {
    const cc = ((this.continuity.get(pid) ?? 15) + 1) & 0x0f;
    this.continuity.set(pid, cc);
    packet[0] = SYNC_BYTE;
    packet[1] = (unitStart ? 0x40 : 0) | ((pid >> 8) & 0x1f);
    packet[2] = pid & 0xff;
    packet[3] = (adaptation ? 0x30 : 0x10) | cc;
  }
}

/** A PSI section with its CRC (table_id, one section, version 0, current). */
function section(tableId: number, idExtension: number, body: number[]): Buffer {
  const length = 5 + body.length + 4;
  const bytes = Buffer.from([
    tableId,
    0xb0 | (length >> 8),
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

/** A PES header with PTS (and DTS when it differs); `length` 0 leaves the packet length open (video). */
function pesHeader(streamId: number, pts: number, dts: number | undefined, length: number): Buffer {
  const withDts = dts !== undefined && dts !== pts;
  const headerData = withDts ? 10 : 5;
  const header = Buffer.alloc(9 + headerData);
  header.writeUIntBE(0x000001, 0, 3);
  header[3] = streamId;
  const packetLength = length === 0 ? 0 : 3 + headerData + length;
  header.writeUInt16BE(packetLength > 0xffff ? 0 : packetLength, 4);
  header[6] = 0x80;
  header[7] = withDts ? 0xc0 : 0x80;
  header[8] = headerData;
  writeTimestamp(header, 9, withDts ? 3 : 2, pts);
  if (withDts) writeTimestamp(header, 14, 1, dts);
  return header;
}

function writeTimestamp(b: Buffer, o: number, prefix: number, value: number): void {
  const ts = ((value % TS_WRAP) + TS_WRAP) % TS_WRAP;
  const high = Math.floor(ts / 2 ** 30) & 7;
  const low = ts % 2 ** 30;
  b[o] = (prefix << 4) | (high << 1) | 1;
  b[o + 1] = (low >>> 22) & 0xff;
  b[o + 2] = ((low >>> 14) & 0xfe) | 1;
  b[o + 3] = (low >>> 7) & 0xff;
  b[o + 4] = ((low << 1) & 0xfe) | 1;
}

/** program_clock_reference: a 33-bit base in 90 kHz, 6 reserved bits, a 9-bit extension left 0. */
function pcrBytes(value: number): number[] {
  const base = ((value % TS_WRAP) + TS_WRAP) % TS_WRAP;
  const high = Math.floor(base / 2); // the top 32 bits
  return [
    (high >>> 24) & 0xff,
    (high >>> 16) & 0xff,
    (high >>> 8) & 0xff,
    high & 0xff,
    ((base & 1) << 7) | 0x7e,
    0x00,
  ];
}
