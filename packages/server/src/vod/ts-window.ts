import { parsePat, parsePmt, SectionAssembler } from '../media/psi.js';
import { classifyStream } from '../media/stream-types.js';
import {
  hasPayload,
  PACKET_SIZE,
  PAT_PID,
  payloadOffset,
  pidOf,
  readPesHeader,
  startsUnit,
  SYNC_BYTE,
} from '../media/ts-packet.js';

/**
 * ffmpeg's `-ss` lands on or before the keyframe asked for and `-t` stops a few frames late (it
 * compares decode times), keeping audio from before the seek point: its cut is not exact. This
 * keeps, of what ffmpeg wrote, exactly one segment's access units, so consecutive segments
 * concatenate with no frame twice and none missing: video from the keyframe at `fromPts` up to
 * (not including) the next cut's keyframe, audio frames presented in [fromPts, toPts).
 */
export interface TsWindow {
  /** 90 kHz, on the segment's clock; undefined for the first segment (everything before it too). */
  fromPts?: number;
  /** The next segment's start; undefined for the last segment. */
  toPts?: number;
}

/** Timestamps computed from ffprobe's microseconds may be this far (90 kHz ticks) off the packets'. */
const TOLERANCE_TICKS = 45;

type Decision = 'keep' | 'drop';

interface Elementary {
  video: boolean;
  /** Video: before the window's keyframe, in the window, past its end. */
  phase: 'before' | 'in' | 'after';
  decision: Decision;
  continuity: number;
}

/**
 * The packets of `ts` (whole PES units, ffmpeg's `-pes_payload_size 0`: one audio frame each) inside
 * the window: tables from the first PAT on, the window's keyframe as the first media packet (audio
 * of the window muxed before it is held back until it), continuity counters renumbered per PID.
 * Throws when the segment's video has no keyframe at `fromPts`.
 */
export function trimToWindow(ts: Buffer, window: TsWindow): Buffer {
  const from = window.fromPts === undefined ? -Infinity : window.fromPts - TOLERANCE_TICKS;
  const to = window.toPts === undefined ? Infinity : window.toPts - TOLERANCE_TICKS;
  const pids = elementaryPids(ts);
  const hasVideo = [...pids.values()].some((e) => e.video);
  const out: Buffer[] = [];
  const held: Buffer[] = [];
  let tables = false;
  let videoStarted = !hasVideo;
  for (let o = 0; o + PACKET_SIZE <= ts.length; o += PACKET_SIZE) {
    if (ts[o] !== SYNC_BYTE) throw new Error(`MPEG-TS from ffmpeg lost sync at byte ${o}`);
    const pid = pidOf(ts, o);
    const stream = pids.get(pid);
    if (!stream) {
      // Tables (PAT, PMT, SDT) and PCR-only packets: from the first PAT on, so the segment starts with it.
      tables ||= pid === PAT_PID;
      if (tables) out.push(ts.subarray(o, o + PACKET_SIZE));
      continue;
    }
    if (startsUnit(ts, o)) stream.decision = decide(stream, ts, o, from, to);
    if (stream.decision === 'drop') continue;
    const packet = Buffer.from(ts.subarray(o, o + PACKET_SIZE));
    if (hasPayload(packet, 0)) {
      packet[3] = (packet[3]! & 0xf0) | stream.continuity;
      stream.continuity = (stream.continuity + 1) & 0x0f;
    }
    if (stream.video) videoStarted = true;
    if (!videoStarted) {
      held.push(packet);
      continue;
    }
    out.push(...held.splice(0), packet);
  }
  if (hasVideo && !videoStarted)
    throw new Error(`no keyframe at ${((window.fromPts ?? 0) / 90_000).toFixed(3)} s in ffmpeg's output`);
  return Buffer.concat(out);
}

/** Whether the PES starting at packet `o` belongs to the window. */
function decide(stream: Elementary, ts: Buffer, o: number, from: number, to: number): Decision {
  const start = payloadOffset(ts, o);
  const pes = start < 0 ? undefined : readPesHeader(ts, start, o + PACKET_SIZE);
  const pts = pes?.pts;
  // A unit without a timestamp goes with the one before it.
  if (pts === undefined) return stream.decision;
  if (!stream.video) return pts >= from && pts < to ? 'keep' : 'drop';
  if (stream.phase === 'before' && pts >= from) stream.phase = 'in';
  if (stream.phase === 'in' && pts >= to) stream.phase = 'after';
  return stream.phase === 'in' ? 'keep' : 'drop';
}

/** The elementary PIDs of the first program, from the PAT and PMT ffmpeg writes first. */
function elementaryPids(ts: Buffer): Map<number, Elementary> {
  const pat = new SectionAssembler();
  const pmt = new SectionAssembler();
  let pmtPid: number | undefined;
  for (let o = 0; o + PACKET_SIZE <= ts.length; o += PACKET_SIZE) {
    const pid = pidOf(ts, o);
    const start = payloadOffset(ts, o);
    if (start < 0) continue;
    const payload = ts.subarray(start, o + PACKET_SIZE);
    if (pid === PAT_PID && pmtPid === undefined) {
      const section = pat.push(payload, startsUnit(ts, o));
      pmtPid = section ? parsePat(section)?.[0]?.pmtPid : undefined;
    } else if (pid === pmtPid) {
      const section = pmt.push(payload, startsUnit(ts, o));
      const table = section ? parsePmt(section) : undefined;
      if (!table) continue;
      const pids = new Map<number, Elementary>();
      for (const s of table.streams) {
        const video = classifyStream(s)?.content === 'video';
        pids.set(s.pid, { video, phase: 'before', decision: 'drop', continuity: 0 });
      }
      return pids;
    }
  }
  throw new Error('no program tables (PAT/PMT) in ffmpeg output');
}
