import { PACKET_SIZE, PAT_PID, SYNC_BYTE, TS_CLOCK } from './ts-packet.js';
import { byteLength, type Payload, pesHeader, PieceCursor, pieces, writePcr } from './ts-pes.js';
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
/** Output of a muxer is carved from slabs of this size (see take()). */
const SLAB_BYTES = 64 * 1024;
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
  private slab = Buffer.alloc(0);
  private slabUsed = 0;
  /** PAT, PMT and SDT packets by PID and first continuity counter (see psi()). */
  private readonly tablePackets = new Map<number, Buffer>();
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

  /**
   * One access unit, as one buffer or in pieces (copied straight into the packets, not joined first).
   * The tables and PCR-only packets due before it come out with it, in one call of `out`.
   */
  writeVideo(annexB: Payload, dts: number, pts: number, keyframe: boolean): void {
    this.advance(dts);
    const before: Buffer[] = [];
    this.writeTables(keyframe, before);
    this.fillPcr(before);
    const header = pesHeader(0xe0, pts, dts, 0);
    const options = { pcr: this.takePcr(), randomAccess: keyframe };
    this.out(this.packetize(VIDEO_PID, header, pieces(annexB), options, before));
  }

  writeAudio(adts: Payload, pts: number): void {
    this.advance(pts);
    const before: Buffer[] = [];
    this.writeTables(false, before);
    this.fillPcr(before);
    const payload = pieces(adts);
    const header = pesHeader(0xc0, pts, undefined, byteLength(payload));
    const pcr = this.tracks.video ? undefined : this.takePcr();
    this.out(this.packetize(AUDIO_PID, header, payload, { pcr, randomAccess: !this.tracks.video }, before));
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
  private fillPcr(into: Buffer[]): void {
    if (this.lastPcr === undefined) return;
    const from = this.lastPcr;
    const gap = this.clock! - from;
    const steps = Math.ceil(gap / PCR_GAP_TICKS);
    const pid = this.tracks.video ? VIDEO_PID : AUDIO_PID;
    for (let k = 1; k < Math.min(steps, MAX_PCR_FILL + 1); k++) {
      into.push(this.pcrPacket(pid, Math.round(from + (gap * k) / steps)));
    }
  }

  /** PAT and PMT when due (or asked: before a keyframe, for a decoder joining there), the SDT with them when due. */
  private writeTables(force: boolean, into: Buffer[]): void {
    const now = this.clock!;
    if (!force && this.lastTables !== undefined && now - this.lastTables < TABLES_TICKS) return;
    this.lastTables = now;
    const parts = [this.psi(PAT_PID, this.pat), this.psi(PMT_PID, this.pmt)];
    if (this.lastSdt === undefined || now - this.lastSdt >= SDT_TICKS) {
      this.lastSdt = now;
      parts.push(this.psi(SDT_PID, this.sdt));
    }
    into.push(...parts);
  }

  private psi(pid: number, sectionBytes: Buffer): Buffer {
    const count = sectionPacketCount(sectionBytes);
    const first = this.nextCc(pid);
    this.continuity.set(pid, (first + count - 1) & 0x0f);
    // The tables never change and go out ~30 times a second: their packets are made once per
    // counter value (16 of each), not allocated at each repeat.
    const key = pid * 16 + first;
    let packets = this.tablePackets.get(key);
    if (!packets) this.tablePackets.set(key, (packets = sectionPackets(pid, sectionBytes, first)));
    return packets;
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
    writePcr(packet, 6, this.takePcr(clock));
    return packet;
  }

  private flags(pcr: boolean, randomAccess: boolean): number {
    const discontinuity = pcr && this.timebaseChanged;
    if (pcr) this.timebaseChanged = false;
    return (discontinuity ? 0x80 : 0) | (randomAccess ? 0x40 : 0) | (pcr ? 0x10 : 0);
  }

  /**
   * The PES (`header`, then `payload`'s pieces) cut into packets, after the ready packets of
   * `before`, in one buffer written byte by byte (every byte is set: no zero fill, no joining copy).
   */
  private packetize(
    pid: number,
    header: Buffer,
    payload: readonly Buffer[],
    options: { pcr?: number; randomAccess: boolean },
    before: readonly Buffer[],
  ): Buffer {
    const pesLength = header.length + byteLength(payload);
    const beforeBytes = byteLength(before);
    // +8: the first packet's adaptation field (flags and PCR) may push one more packet.
    const out = this.take(beforeBytes + Math.ceil((pesLength + 8) / 184) * PACKET_SIZE);
    let o = 0;
    for (const packets of before) o += packets.copy(out, o);
    const source = new PieceCursor(header, payload);
    let written = 0;
    for (let first = true; written < pesLength; first = false) {
      const flagged = first && (options.pcr !== undefined || options.randomAccess);
      // The adaptation field's bytes after its length byte: flags, PCR, then stuffing.
      let fieldBytes = flagged ? (options.pcr !== undefined ? 7 : 1) : 0;
      let hasField = flagged;
      let room = 184 - (hasField ? fieldBytes + 1 : 0);
      const left = pesLength - written;
      if (left < room) {
        // The payload must end the packet: what is short is adaptation-field stuffing.
        if (!hasField) {
          hasField = true;
          room -= 1; // the adaptation_field_length byte
        }
        fieldBytes += room - left;
        room = left;
      }
      this.header(out, o, pid, first, hasField);
      let p = o + 4;
      if (hasField) {
        out[p++] = fieldBytes;
        const end = p + fieldBytes;
        if (flagged) {
          out[p++] = this.flags(options.pcr !== undefined, options.randomAccess);
          if (options.pcr !== undefined) p = writePcr(out, p, options.pcr);
        } else if (fieldBytes > 0) {
          out[p++] = 0x00; // no flags: stuffing only
        }
        out.fill(0xff, p, end);
        p = end;
      }
      source.copyTo(out, p, room);
      written += room;
      o += PACKET_SIZE;
    }
    if (o === out.length) return out;
    if (out.buffer === this.slab.buffer) this.slabUsed -= out.length - o;
    return out.subarray(0, o);
  }

  /**
   * Output memory: carved from a slab of this muxer's (a view), or its own buffer when large. Each
   * access unit in a buffer of its own was ~1,000 ArrayBuffers a second at 50 publishers for the
   * collector to track; the slab is freed once no view of it is held (segments are copied out).
   */
  private take(bytes: number): Buffer {
    if (bytes > SLAB_BYTES / 4) return Buffer.allocUnsafe(bytes);
    if (this.slabUsed + bytes > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.slabUsed = 0;
    }
    this.slabUsed += bytes;
    return this.slab.subarray(this.slabUsed - bytes, this.slabUsed);
  }

  private nextCc(pid: number): number {
    return ((this.continuity.get(pid) ?? 15) + 1) & 0x0f;
  }

  private header(out: Buffer, o: number, pid: number, unitStart: boolean, adaptation: boolean): void {
    const cc = this.nextCc(pid);
    this.continuity.set(pid, cc);
    out[o] = SYNC_BYTE;
    out[o + 1] = (unitStart ? 0x40 : 0) | ((pid >> 8) & 0x1f);
    out[o + 2] = pid & 0xff;
    out[o + 3] = (adaptation ? 0x30 : 0x10) | cc;
  }
}
