import { parsePat, parsePmt, SectionAssembler } from '../psi.js';
import { classifyStream } from '../stream-types.js';
import {
  isDiscontinuity,
  isRandomAccess,
  PACKET_SIZE,
  PAT_PID,
  payloadOffset,
  pidOf,
  readPesHeader,
  startsUnit,
  SYNC_BYTE,
} from '../ts-packet.js';
import type { Pes } from '../fmp4/ts-elementary.js';

export type LlVideoCodec = 'h264' | 'hevc';

export interface PesSink {
  /** The program's tracks changed (or were first read): what comes next is a new timeline. */
  tracks(video: LlVideoCodec | undefined, audio: boolean): void;
  /** A whole video access unit (one PES, as TS muxers write them). */
  video(pes: Pes): void;
  /** A whole AAC (ADTS) PES. */
  audio(pes: Pes): void;
  /** The source flagged a discontinuity (a switch): the timeline starts over. */
  discontinuity(): void;
}

/** A PES growing past this is garbage (or a stream no player wants): it is dropped. */
const MAX_PES_BYTES = 8 * 1024 * 1024;

interface Assembly {
  head: Omit<Pes, 'data'>;
  chunks: Buffer[];
  bytes: number;
}

/**
 * Reads whole PES packets of the first H.264/HEVC video and the first ADTS AAC track of the first
 * program, live, from the packets a stream's bus lets through. A PES is whole when the next one of
 * its PID starts (video PES carry no length), or, for a PES with a length, once that many bytes came.
 */
export class PesReader {
  private readonly pat = new SectionAssembler();
  private readonly pmt = new SectionAssembler();
  private pmtPid: number | undefined;
  private pmtVersion = '';
  private videoPid: number | undefined;
  private audioPid: number | undefined;
  private readonly open = new Map<number, Assembly & { length?: number }>();

  constructor(private readonly sink: PesSink) {}

  /** Whole packets, aligned (what a bus subscriber gets). */
  push(chunk: Buffer): void {
    for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) {
      if (chunk[o] !== SYNC_BYTE) continue;
      this.packet(chunk, o);
    }
  }

  private packet(b: Buffer, o: number): void {
    const pid = pidOf(b, o);
    const start = payloadOffset(b, o);
    if (start < 0) return;
    const end = o + PACKET_SIZE;
    if (pid === PAT_PID) {
      const section = this.pat.push(b.subarray(start, end), startsUnit(b, o));
      const pmtPid = section ? parsePat(section)?.[0]?.pmtPid : undefined;
      if (pmtPid !== undefined) this.pmtPid = pmtPid;
      return;
    }
    if (pid === this.pmtPid) return this.onPmt(b.subarray(start, end), startsUnit(b, o));
    if (pid !== this.videoPid && pid !== this.audioPid) return;
    if (pid === this.videoPid && isDiscontinuity(b, o) && startsUnit(b, o)) {
      this.flush(pid);
      this.sink.discontinuity();
    }
    if (startsUnit(b, o)) {
      this.flush(pid);
      const pes = readPesHeader(b, start, end);
      if (!pes) return;
      const length = b.readUInt16BE(start + 4);
      const assembly = {
        head: { pts: pes.pts, dts: pes.dts, randomAccess: isRandomAccess(b, o) },
        chunks: [b.subarray(pes.dataOffset, end)],
        bytes: end - pes.dataOffset,
        // PES_packet_length counts the bytes after itself: the header's rest and the payload.
        ...(length > 0 ? { length: length + 6 - (pes.dataOffset - start) } : {}),
      };
      this.open.set(pid, assembly);
    } else {
      const assembly = this.open.get(pid);
      if (!assembly) return;
      assembly.chunks.push(b.subarray(start, end));
      assembly.bytes += end - start;
      if (assembly.bytes > MAX_PES_BYTES) this.open.delete(pid);
    }
    const assembly = this.open.get(pid);
    if (assembly?.length !== undefined && assembly.bytes >= assembly.length) this.flush(pid);
  }

  private onPmt(payload: Buffer, unitStart: boolean): void {
    const section = this.pmt.push(payload, unitStart);
    const table = section ? parsePmt(section) : undefined;
    if (!table) return;
    let video: { pid: number; codec: LlVideoCodec } | undefined;
    let audio: number | undefined;
    for (const stream of table.streams) {
      const kind = classifyStream(stream);
      if (!video && (kind?.video === 'h264' || kind?.video === 'hevc'))
        video = { pid: stream.pid, codec: kind.video };
      if (audio === undefined && kind?.audio === 'adts') audio = stream.pid;
    }
    const version = `${video?.pid}:${video?.codec}:${audio}`;
    if (version === this.pmtVersion) return;
    this.pmtVersion = version;
    this.open.clear();
    this.videoPid = video?.pid;
    this.audioPid = audio;
    this.sink.tracks(video?.codec, audio !== undefined);
  }

  /** The PES being read on `pid` is whole: hand it on. */
  private flush(pid: number): void {
    const assembly = this.open.get(pid);
    if (!assembly) return;
    this.open.delete(pid);
    const data = assembly.chunks.length === 1 ? assembly.chunks[0]! : Buffer.concat(assembly.chunks);
    const pes: Pes = {
      ...assembly.head,
      data: assembly.length !== undefined ? data.subarray(0, assembly.length) : data,
    };
    if (pid === this.videoPid) this.sink.video(pes);
    else this.sink.audio(pes);
  }
}
