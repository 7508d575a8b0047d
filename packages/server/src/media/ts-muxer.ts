import { PACKET_SIZE, PAT_PID, SYNC_BYTE, TS_CLOCK, TS_WRAP } from './ts-packet.js';
import {
  patSection,
  pmtSection,
  SDT_PID,
  sdtSection,
  sectionPacketCount,
  sectionPackets,
} from './ts-tables.js';

/** Fixed PIDs of what this muxer writes (the values ffmpeg uses, so both outputs look alike). */
export const PMT_PID = 0x1000;
export const VIDEO_PID = 0x100;
export const AUDIO_PID = 0x101;
const PROGRAM = 1;
const STREAM_TYPE_H264 = 0x1b;
const STREAM_TYPE_AAC_ADTS = 0x0f;

/**
 * How far the PCR runs behind the decode times: each access unit reaches the decoder this long
 * before it is due (ISO 13818-1 §2.4.2: a DTS before the PCR is a unit that came too late). It
 * also covers publishers that interleave audio up to this far behind video. ffmpeg uses 700 ms.
 */
export const PCR_DELAY_MS = 500;
/** TR 101 290 2.3: at most 40 ms between PCRs. */
const PCR_GAP_TICKS = (40 * TS_CLOCK) / 1000;
/** PCR-only packets written at most into one gap: a longer silence is a stalled publisher, and shows. */
const MAX_PCR_FILL = 25;
/** PAT and PMT at least this often (TR 101 290 1.3/1.5 allow 500 ms; ffmpeg sends them every 100 ms). */
const TABLES_TICKS = (100 * TS_CLOCK) / 1000;
/** The SDT at least this often (EN 300 468 / TR 101 290 3.5 allow 2 s). */
const SDT_TICKS = (500 * TS_CLOCK) / 1000;
/** A decode time this far from the clock is a publisher's timestamp reset, not a late or early frame. */
const JUMP_TICKS = 10 * TS_CLOCK;

export interface TsMuxerOptions {
  video: boolean;
  audio: boolean;
  /** The PMT's stream_type for the video PID: H.264 (0x1b) unless told, HEVC is 0x24 (VOD files). */
  videoStreamType?: number;
  /** The service name the SDT gives (the stream name). */
  serviceName?: string;
}

/**
 * Writes H.264 (Annex B) and AAC (ADTS) access units as MPEG-TS (ISO 13818-1), for set-top boxes
 * and analyzers as much as for the HLS segmenter: PAT and PMT every 100 ms and before each
 * keyframe, an SDT every 500 ms, one PES per access unit, the random-access flag on keyframes.
 * The PCR runs `PCR_DELAY_MS` behind the newest decode time written (PTS and DTS stay as the
 * publisher sent them), on the video PID (else audio), at most 40 ms apart: where units are
 * further apart, PCR-only packets fill the step. Timestamps in 90 kHz ticks.
 */
export class TsMuxer {
  private readonly continuity = new Map<number, number>();
  private readonly pat = patSection(PROGRAM, PMT_PID);
  private readonly pmt: Buffer;
  private readonly sdt: Buffer;
  /** The newest decode time written: the PCR is this minus the delay. */
  private clock: number | undefined;
  private lastPcr: number | undefined;
  private lastTables: number | undefined;
  private lastSdt: number | undefined;
  /** The next PCR starts a new time base (discontinuity_indicator), after a timestamp jump. */
  private timebaseChanged = false;

  constructor(
    private readonly out: (packets: Buffer) => void,
    private readonly tracks: TsMuxerOptions,
  ) {
    const pcrPid = tracks.video ? VIDEO_PID : AUDIO_PID;
    const streams = [];
    if (tracks.video)
      streams.push({ pid: VIDEO_PID, streamType: tracks.videoStreamType ?? STREAM_TYPE_H264 });
    if (tracks.audio) streams.push({ pid: AUDIO_PID, streamType: STREAM_TYPE_AAC_ADTS });
    this.pmt = pmtSection(PROGRAM, pcrPid, streams);
    const serviceName = tracks.serviceName ?? 'Sluice';
    this.sdt = sdtSection({ program: PROGRAM, provider: 'Sluice', serviceName, radio: !tracks.video });
  }

  writeVideo(annexB: Buffer, dts: number, pts: number, keyframe: boolean): void {
    this.advance(dts);
    this.writeTables(keyframe);
    this.fillPcr();
    const header = pesHeader(0xe0, pts, dts, 0);
    this.out(this.packetize(VIDEO_PID, header, annexB, { pcr: this.takePcr(), randomAccess: keyframe }));
  }

  writeAudio(adts: Buffer, pts: number): void {
    this.advance(pts);
    this.writeTables(false);
    this.fillPcr();
    const header = pesHeader(0xc0, pts, undefined, adts.length);
    const pcr = this.tracks.video ? undefined : this.takePcr();
    this.out(this.packetize(AUDIO_PID, header, adts, { pcr, randomAccess: !this.tracks.video }));
  }

  /** Moves the clock to `dts` if later: the PCR never runs backwards, and follows the track ahead. */
  private advance(dts: number): void {
    if (this.clock === undefined || Math.abs(dts - this.clock) > JUMP_TICKS) {
      this.timebaseChanged = this.clock !== undefined;
      this.clock = dts;
      this.lastPcr = this.lastTables = this.lastSdt = undefined;
    } else if (dts > this.clock) {
      this.clock = dts;
    }
  }

  /** The PCR for a packet written now (90 kHz base), noting it was sent. */
  private takePcr(clock = this.clock!): number {
    this.lastPcr = clock;
    return clock - (PCR_DELAY_MS * TS_CLOCK) / 1000;
  }

  /**
   * The clock moved more than 40 ms since the last PCR (frames further apart than that, or video
   * between two audio frames): PCR-only packets on the PCR PID split the step, as a hardware
   * muxer's timer would have sent them while waiting for this unit.
   */
  private fillPcr(): void {
    if (this.lastPcr === undefined) return;
    const from = this.lastPcr;
    const gap = this.clock! - from;
    const steps = Math.ceil(gap / PCR_GAP_TICKS);
    const pid = this.tracks.video ? VIDEO_PID : AUDIO_PID;
    for (let k = 1; k < Math.min(steps, MAX_PCR_FILL + 1); k++) {
      this.out(this.pcrPacket(pid, Math.round(from + (gap * k) / steps)));
    }
  }

  /** PAT and PMT when due (or asked: before a keyframe, for a decoder joining there), the SDT with them when due. */
  private writeTables(force: boolean): void {
    const now = this.clock!;
    if (!force && this.lastTables !== undefined && now - this.lastTables < TABLES_TICKS) return;
    this.lastTables = now;
    const parts = [this.psi(PAT_PID, this.pat), this.psi(PMT_PID, this.pmt)];
    if (this.lastSdt === undefined || now - this.lastSdt >= SDT_TICKS) {
      this.lastSdt = now;
      parts.push(this.psi(SDT_PID, this.sdt));
    }
    this.out(Buffer.concat(parts));
  }

  private psi(pid: number, sectionBytes: Buffer): Buffer {
    const count = sectionPacketCount(sectionBytes);
    const first = this.nextCc(pid);
    this.continuity.set(pid, (first + count - 1) & 0x0f);
    return sectionPackets(pid, sectionBytes, first);
  }

  /** A packet carrying only a PCR: no payload, so its continuity counter stays (ISO 13818-1 §2.4.3.3). */
  private pcrPacket(pid: number, clock: number): Buffer {
    const packet = Buffer.alloc(PACKET_SIZE, 0xff);
    const cc = this.continuity.get(pid) ?? 15;
    this.continuity.set(pid, cc);
    packet[0] = SYNC_BYTE;
    packet[1] = (pid >> 8) & 0x1f;
    packet[2] = pid & 0xff;
    packet[3] = 0x20 | cc;
    packet[4] = PACKET_SIZE - 5;
    packet[5] = this.flags(true, false);
    Buffer.from(pcrBytes(this.takePcr(clock))).copy(packet, 6);
    return packet;
  }

  private flags(pcr: boolean, randomAccess: boolean): number {
    const discontinuity = pcr && this.timebaseChanged;
    if (pcr) this.timebaseChanged = false;
    return (discontinuity ? 0x80 : 0) | (randomAccess ? 0x40 : 0) | (pcr ? 0x10 : 0);
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
        field = [this.flags(options.pcr !== undefined, options.randomAccess)];
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

  private nextCc(pid: number): number {
    return ((this.continuity.get(pid) ?? 15) + 1) & 0x0f;
  }

  private header(packet: Buffer, pid: number, unitStart: boolean, adaptation: boolean): void {
    const cc = this.nextCc(pid);
    this.continuity.set(pid, cc);
    packet[0] = SYNC_BYTE;
    packet[1] = (unitStart ? 0x40 : 0) | ((pid >> 8) & 0x1f);
    packet[2] = pid & 0xff;
    packet[3] = (adaptation ? 0x30 : 0x10) | cc;
  }
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

/**
 * program_clock_reference: a 33-bit base in 90 kHz, 6 reserved bits, a 9-bit extension left 0.
 * In a publish's first `PCR_DELAY_MS` the clock is below zero and wraps, as it does every 26.5 h.
 */
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
