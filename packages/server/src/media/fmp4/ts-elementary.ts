import { parsePat, parsePmt, SectionAssembler } from '../psi.js';
import { classifyStream } from '../stream-types.js';
import {
  isRandomAccess,
  NULL_PID,
  PACKET_SIZE,
  PAT_PID,
  payloadOffset,
  pidOf,
  readPesHeader,
  startsUnit,
  SYNC_BYTE,
} from '../ts-packet.js';

/** One PES packet of an elementary stream, whole: its timestamps (90 kHz) and its bytes. */
export interface Pes {
  pts: number | undefined;
  dts: number | undefined;
  data: Buffer;
  /** The TS packet starting it had random_access_indicator set. */
  randomAccess: boolean;
}

export interface ElementaryStreams {
  video?: { codec: 'h264' | 'hevc'; pes: Pes[] };
  /** AAC in ADTS frames (stream type 0x0F). */
  audio?: { pes: Pes[] };
}

/**
 * The first H.264/HEVC video and the first AAC audio of a whole MPEG-TS segment, as PES packets.
 * The segment is read whole (the live segmenter cuts at a unit start after the tables), so each
 * PES ends where the next one on its PID starts, or at the end of the segment.
 */
export function readElementaryStreams(ts: Buffer): ElementaryStreams {
  const pids = findPids(ts);
  const parts = new Map<number, { head: Pes; chunks: Buffer[] }[]>();
  for (const pid of [pids.video?.pid, pids.audio].filter((p) => p !== undefined)) parts.set(pid, []);
  for (let o = firstSync(ts); o + PACKET_SIZE <= ts.length; o += PACKET_SIZE) {
    if (ts[o] !== SYNC_BYTE) continue;
    const units = parts.get(pidOf(ts, o));
    const start = payloadOffset(ts, o);
    if (!units || start < 0) continue;
    const end = o + PACKET_SIZE;
    if (startsUnit(ts, o)) {
      const pes = readPesHeader(ts, start, end);
      if (!pes) continue;
      const head = { pts: pes.pts, dts: pes.dts, data: Buffer.alloc(0), randomAccess: isRandomAccess(ts, o) };
      units.push({ head, chunks: [ts.subarray(pes.dataOffset, end)] });
    } else {
      // Bytes before the first unit start of a PID continue a PES of the previous segment.
      units[units.length - 1]?.chunks.push(ts.subarray(start, end));
    }
  }
  const whole = (pid: number): Pes[] =>
    (parts.get(pid) ?? []).map(({ head, chunks }) => ({ ...head, data: Buffer.concat(chunks) }));
  const out: ElementaryStreams = {};
  if (pids.video) out.video = { codec: pids.video.codec, pes: whole(pids.video.pid) };
  if (pids.audio !== undefined) out.audio = { pes: whole(pids.audio) };
  return out;
}

/** The PIDs of the first program's first H.264/HEVC video and first ADTS AAC audio. */
function findPids(ts: Buffer): { video?: { pid: number; codec: 'h264' | 'hevc' }; audio?: number } {
  const pat = new SectionAssembler();
  const pmt = new SectionAssembler();
  let pmtPid: number | undefined;
  for (let o = firstSync(ts); o + PACKET_SIZE <= ts.length; o += PACKET_SIZE) {
    const pid = pidOf(ts, o);
    const start = payloadOffset(ts, o);
    if (ts[o] !== SYNC_BYTE || pid === NULL_PID || start < 0) continue;
    const payload = ts.subarray(start, o + PACKET_SIZE);
    if (pid === PAT_PID && pmtPid === undefined) {
      const section = pat.push(payload, startsUnit(ts, o));
      pmtPid = section ? parsePat(section)?.[0]?.pmtPid : undefined;
    } else if (pid === pmtPid) {
      const section = pmt.push(payload, startsUnit(ts, o));
      const table = section ? parsePmt(section) : undefined;
      if (!table) continue;
      let video: { pid: number; codec: 'h264' | 'hevc' } | undefined;
      let audio: number | undefined;
      for (const stream of table.streams) {
        const kind = classifyStream(stream);
        if (!video && (kind?.video === 'h264' || kind?.video === 'hevc'))
          video = { pid: stream.pid, codec: kind.video };
        if (audio === undefined && kind?.audio === 'adts') audio = stream.pid;
      }
      return { video, audio };
    }
  }
  return {};
}

/** Where packets start: 0 for a segment as cut, or past bytes that are not a packet. */
function firstSync(ts: Buffer): number {
  for (let o = 0; o < Math.min(ts.length, PACKET_SIZE); o++) {
    if (ts[o] === SYNC_BYTE && (o + PACKET_SIZE >= ts.length || ts[o + PACKET_SIZE] === SYNC_BYTE)) return o;
  }
  return 0;
}
