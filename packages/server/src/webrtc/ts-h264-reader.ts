import { parsePat, parsePmt, SectionAssembler } from '../media/psi.js';
import { classifyStream } from '../media/stream-types.js';
import {
  NULL_PID,
  PACKET_SIZE,
  PAT_PID,
  payloadOffset,
  pidOf,
  readPesHeader,
  startsUnit,
} from '../media/ts-packet.js';

/** One H.264 PES: an access unit in Annex B form and its presentation time (90 kHz). */
export interface TsVideoUnit {
  pts: number;
  data: Buffer;
}

/** H.264 in a PMT (ISO 13818-1 Table 2-34, stream_type 0x1B). */
const STREAM_TYPE_H264 = 0x1b;
/** A PES that grows past this without ending is dropped: no access unit is that large. */
const MAX_PES_BYTES = 8 * 1024 * 1024;

/**
 * The H.264 access units of an MPEG-TS stream, read from aligned packets (what the packet bus hands
 * its subscribers): the PAT and PMT say which PID is H.264, and each of its PES packets is one
 * access unit. Video PES carry no length (ffmpeg and encoders write 0), so a unit is complete when
 * the next begins: it comes out one frame later than it went in.
 */
export class TsH264Reader {
  /** The H.264 PID, once the PMT named one; undefined also when the program has no H.264. */
  videoPid: number | undefined;
  /** Whether the PMT has been read (with or without H.264 in it). */
  tablesKnown = false;
  /** stream_type of the program's first video-like stream, when it is not H.264 (for the refusal). */
  otherVideoType: number | undefined;
  private pmtPid: number | undefined;
  /** The first audio PID of the PMT, if any. */
  private audioPid: number | undefined;
  private readonly pat = new SectionAssembler();
  private readonly pmt = new SectionAssembler();
  private parts: Buffer[] = [];
  private size = 0;
  private pts: number | undefined;

  constructor(private readonly onUnit: (unit: TsVideoUnit) => void) {}

  push(chunk: Buffer): void {
    for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) this.packet(chunk, o);
  }

  /**
   * The packets of `chunk` an audio-only reader needs: the PAT, the PMT and the first audio track.
   * The audio ffmpeg gets only these: handed the video too, it decodes it to probe it, and logs
   * the errors of every GOP it joins in the middle.
   */
  audioPackets(chunk: Buffer): Buffer {
    const keep: Buffer[] = [];
    for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) {
      const pid = pidOf(chunk, o);
      if (pid === PAT_PID || pid === this.pmtPid || (pid === this.audioPid && pid !== undefined))
        keep.push(chunk.subarray(o, o + PACKET_SIZE));
    }
    return keep.length === 1 ? keep[0]! : Buffer.concat(keep);
  }

  /** The source changed: a unit begun by the old one is not finished by the new one. */
  reset(): void {
    this.parts = [];
    this.size = 0;
    this.pts = undefined;
  }

  private packet(b: Buffer, o: number): void {
    const pid = pidOf(b, o);
    if (pid === NULL_PID) return;
    const start = payloadOffset(b, o);
    if (start < 0) return;
    const unitStart = startsUnit(b, o);
    const payload = b.subarray(start, o + PACKET_SIZE);
    if (pid === PAT_PID) {
      const section = this.pat.push(payload, unitStart);
      const first = section ? parsePat(section)?.[0] : undefined;
      if (first && first.pmtPid !== this.pmtPid) this.pmtPid = first.pmtPid;
      return;
    }
    if (pid === this.pmtPid) {
      const section = this.pmt.push(payload, unitStart);
      const pmt = section ? parsePmt(section) : undefined;
      if (!pmt) return;
      const video = pmt.streams.find((s) => s.streamType === STREAM_TYPE_H264);
      this.audioPid = pmt.streams.find((s) => classifyStream(s)?.content === 'audio')?.pid;
      this.otherVideoType = video
        ? undefined
        : pmt.streams.find((s) => isVideoType(s.streamType))?.streamType;
      if (video?.pid !== this.videoPid) this.reset();
      this.videoPid = video?.pid;
      this.tablesKnown = true;
      return;
    }
    if (pid !== this.videoPid) return;
    if (unitStart) {
      this.flush();
      const pes = readPesHeader(b, start, o + PACKET_SIZE);
      if (!pes || pes.pts === undefined) return;
      this.pts = pes.pts;
      this.add(b.subarray(pes.dataOffset, o + PACKET_SIZE));
    } else if (this.pts !== undefined) this.add(payload);
  }

  private add(data: Buffer): void {
    this.size += data.length;
    if (this.size > MAX_PES_BYTES) return this.reset();
    this.parts.push(data);
  }

  private flush(): void {
    if (this.pts !== undefined && this.size > 0) {
      // The bus reuses nothing, but a copy frees the 188-byte packets the parts point into.
      this.onUnit({ pts: this.pts, data: Buffer.concat(this.parts, this.size) });
    }
    this.reset();
  }
}

/** MPEG-2, MPEG-4 part 2, HEVC, VVC…: video a WebRTC player is not sent (only H.264 passes through). */
function isVideoType(type: number): boolean {
  return [0x01, 0x02, 0x10, 0x24, 0x33].includes(type);
}
