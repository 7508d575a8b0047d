import { nalUnits } from '../media/fmp4/annexb.js';
import { parsePat, parsePmt, SectionAssembler } from '../media/psi.js';
import { classifyStream } from '../media/stream-types.js';
import {
  isRandomAccess,
  PACKET_SIZE,
  PAT_PID,
  payloadOffset,
  pidOf,
  readPesHeader,
  startsUnit,
  SYNC_BYTE,
} from '../media/ts-packet.js';

export type VideoCodec = 'h264' | 'hevc';

/** One access unit of the stream, for RTP: video as NAL units (no start codes), audio as ADTS frames. */
export type MediaUnit =
  | { kind: 'video'; codec: VideoCodec; pts: number; nals: Buffer[]; keyframe: boolean }
  | { kind: 'audio'; pts: number; adts: Buffer };

/** A PES this large is not a video frame of any stream served here: it is dropped, not buffered on. */
const MAX_PES_BYTES = 16 * 1024 * 1024;

interface Pending {
  pts: number | undefined;
  randomAccess: boolean;
  chunks: Buffer[];
  bytes: number;
}

/**
 * Follows a stream's MPEG-TS (its packet bus) and hands on whole access units of its first
 * H.264/HEVC video and first ADTS AAC audio. A PES is whole when the next one on its PID starts,
 * so a unit goes out one unit late (one frame, ~40 ms).
 */
export class TsUnits {
  video: { pid: number; codec: VideoCodec } | undefined;
  audioPid: number | undefined;
  /** Bumped when the program's tracks change: the SDP a player was given no longer holds. */
  tracksVersion = 0;
  private pmtPid: number | undefined;
  private readonly pat = new SectionAssembler();
  private readonly pmt = new SectionAssembler();
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly out: (unit: MediaUnit) => void) {}

  push(chunk: Buffer): void {
    for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) {
      if (chunk[o] === SYNC_BYTE) this.packet(chunk, o);
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
    if (pid !== this.video?.pid && pid !== this.audioPid) return;
    if (startsUnit(b, o)) {
      this.flush(pid);
      const pes = readPesHeader(b, start, end);
      if (!pes) return;
      const first = b.subarray(pes.dataOffset, end);
      this.pending.set(pid, {
        pts: pes.pts,
        randomAccess: isRandomAccess(b, o),
        chunks: [Buffer.from(first)],
        bytes: first.length,
      });
      return;
    }
    const unit = this.pending.get(pid);
    if (!unit) return;
    unit.bytes += end - start;
    if (unit.bytes > MAX_PES_BYTES) return void this.pending.delete(pid);
    unit.chunks.push(Buffer.from(b.subarray(start, end)));
  }

  private onPmt(payload: Buffer, unitStart: boolean): void {
    const section = this.pmt.push(payload, unitStart);
    const table = section ? parsePmt(section) : undefined;
    if (!table) return;
    let video: { pid: number; codec: VideoCodec } | undefined;
    let audioPid: number | undefined;
    for (const stream of table.streams) {
      const kind = classifyStream(stream);
      if (!video && (kind?.video === 'h264' || kind?.video === 'hevc'))
        video = { pid: stream.pid, codec: kind.video };
      if (audioPid === undefined && kind?.audio === 'adts') audioPid = stream.pid;
    }
    if (video?.pid === this.video?.pid && video?.codec === this.video?.codec && audioPid === this.audioPid)
      return;
    this.video = video;
    this.audioPid = audioPid;
    this.pending.clear();
    this.tracksVersion++;
  }

  /** Hands on the PES begun on `pid`, now that it is whole. */
  private flush(pid: number): void {
    const unit = this.pending.get(pid);
    this.pending.delete(pid);
    if (!unit || unit.pts === undefined) return;
    const data = unit.chunks.length === 1 ? unit.chunks[0]! : Buffer.concat(unit.chunks);
    if (pid === this.audioPid) return this.out({ kind: 'audio', pts: unit.pts, adts: data });
    const video = this.video;
    if (!video) return;
    const nals = nalUnits(data).filter((nal) => !isDelimiter(video.codec, nal));
    if (nals.length === 0) return;
    const keyframe = unit.randomAccess || nals.some((nal) => isIntra(video.codec, nal));
    this.out({ kind: 'video', codec: video.codec, pts: unit.pts, nals, keyframe });
  }
}

/** The NAL unit type (H.264 §7.3.1, H.265 §7.3.1.2). */
export const nalType = (codec: VideoCodec, nal: Buffer): number =>
  codec === 'h264' ? nal[0]! & 0x1f : (nal[0]! >> 1) & 0x3f;

/** Access unit delimiters are not sent over RTP (RFC 6184 leaves them optional; players do without). */
const isDelimiter = (codec: VideoCodec, nal: Buffer) => nalType(codec, nal) === (codec === 'h264' ? 9 : 35);

/** An IDR (H.264 type 5) or an IRAP picture (HEVC types 16–21). */
function isIntra(codec: VideoCodec, nal: Buffer): boolean {
  const type = nalType(codec, nal);
  return codec === 'h264' ? type === 5 : type >= 16 && type <= 21;
}
