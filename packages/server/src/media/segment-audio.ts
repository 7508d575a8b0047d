import { parsePat, parsePmt, SectionAssembler } from './psi.js';
import { classifyStream } from './stream-types.js';
import {
  PACKET_SIZE,
  PAT_PID,
  payloadOffset,
  pidOf,
  readPesHeader,
  startsUnit,
  tsDiff,
} from './ts-packet.js';

/**
 * Keeping a segment's audio with its video. Muxers send audio late: the audio of the last few
 * hundred milliseconds before a keyframe comes after it in the stream. Cut there and left as it
 * comes, each segment's audio ends short of its video and the next segment's begins early; within
 * one timeline players join them, but at a discontinuity the old timeline's audio stops short,
 * and hls.js, its buffer ending inside a segment it has already loaded, waits seconds before it
 * loads the next (the stalls of failover). So a closed segment takes the audio that belongs to
 * it from the packets after the cut, and at a splice the video is trimmed to where the audio ends.
 */

/** The audio PIDs the program tables of a segment (its PAT/PMT copy) list. */
export class AudioPids {
  private psi: Buffer | undefined;
  private pids: ReadonlySet<number> = new Set();

  of(psi: Buffer): ReadonlySet<number> {
    if (this.psi?.equals(psi)) return this.pids;
    this.psi = Buffer.from(psi);
    this.pids = audioPidsOf(psi);
    return this.pids;
  }
}

function audioPidsOf(psi: Buffer): Set<number> {
  const sections = new Map<number, SectionAssembler>();
  const read = (pid: number): Buffer[] => {
    const out: Buffer[] = [];
    for (let o = 0; o + PACKET_SIZE <= psi.length; o += PACKET_SIZE) {
      const start = payloadOffset(psi, o);
      if (pidOf(psi, o) !== pid || start < 0) continue;
      if (!sections.has(pid)) sections.set(pid, new SectionAssembler());
      const section = sections.get(pid)!.push(psi.subarray(start, o + PACKET_SIZE), startsUnit(psi, o));
      if (section) out.push(Buffer.from(section));
    }
    return out;
  };
  const pids = new Set<number>();
  for (const pat of read(PAT_PID))
    for (const { pmtPid } of parsePat(pat) ?? [])
      for (const section of read(pmtPid))
        for (const stream of parsePmt(section)?.streams ?? [])
          if (classifyStream(stream)?.content === 'audio') pids.add(stream.pid);
  return pids;
}

/** The PTS of the PES that starts in the packet at `o`, if one starts there. */
export function pesPtsAt(b: Buffer, o: number): number | undefined {
  if (!startsUnit(b, o)) return undefined;
  const start = payloadOffset(b, o);
  return start < 0 ? undefined : readPesHeader(b, start, o + PACKET_SIZE)?.pts;
}

/**
 * Where the audio of `parts` ends: per audio PID, its last PES start plus the spacing of the last
 * two (a PES holds a few frames); the earliest of the PIDs. Undefined without any audio PES.
 */
export function audioEndOf(parts: readonly Buffer[], audio: ReadonlySet<number>): number | undefined {
  const last = new Map<number, { pts: number; step: number }>();
  for (const part of parts) {
    for (let o = 0; o + PACKET_SIZE <= part.length; o += PACKET_SIZE) {
      const pid = pidOf(part, o);
      if (!audio.has(pid)) continue;
      const pts = pesPtsAt(part, o);
      if (pts === undefined) continue;
      const before = last.get(pid);
      last.set(pid, { pts, step: before ? Math.max(0, tsDiff(pts, before.pts)) : 0 });
    }
  }
  let end: number | undefined;
  for (const { pts, step } of last.values()) {
    const pidEnd = pts + step;
    if (end === undefined || tsDiff(pidEnd, end) < 0) end = pidEnd;
  }
  return end;
}

/** `parts` without the packets of `pid` from part `from` on (the tail of a trimmed track). */
export function dropPidFrom(parts: Buffer[], from: number, pid: number): void {
  for (let i = from; i < parts.length; i++) {
    const part = parts[i]!;
    const kept: Buffer[] = [];
    let run = 0;
    for (let o = 0; o + PACKET_SIZE <= part.length; o += PACKET_SIZE) {
      if (pidOf(part, o) !== pid) continue;
      if (o > run) kept.push(part.subarray(run, o));
      run = o + PACKET_SIZE;
    }
    if (run === 0) continue;
    if (run < part.length) kept.push(part.subarray(run));
    parts[i] = kept.length === 1 ? kept[0]! : Buffer.concat(kept);
  }
}

/**
 * The audio that comes after a cut but plays before it: it goes to the segment just cut, which is
 * published once every audio PID has started a PES at or past the cut.
 */
export class LateAudio {
  private readonly movedOn = new Set<number>();

  constructor(
    private readonly audio: ReadonlySet<number>,
    private readonly cutPts: number,
  ) {}

  /** Splits `part` between the segment just cut (`late`) and the next (`next`), each in order. */
  split(part: Buffer, late: (p: Buffer) => void, next: (p: Buffer) => void): void {
    let run = 0;
    let runLate = false;
    for (let o = 0; o + PACKET_SIZE <= part.length; o += PACKET_SIZE) {
      const isLate = this.isLate(part, o);
      if (isLate !== runLate && o > run) {
        (runLate ? late : next)(part.subarray(run, o));
        run = o;
      }
      runLate = isLate;
    }
    if (run < part.length) (runLate ? late : next)(run === 0 ? part : part.subarray(run));
  }

  get done(): boolean {
    for (const pid of this.audio) if (!this.movedOn.has(pid)) return false;
    return true;
  }

  private isLate(b: Buffer, o: number): boolean {
    const pid = pidOf(b, o);
    if (!this.audio.has(pid) || this.movedOn.has(pid)) return false;
    // A packet continuing a PES begun before the cut belongs with it.
    if (!startsUnit(b, o)) return true;
    const pts = pesPtsAt(b, o);
    if (pts !== undefined && tsDiff(pts, this.cutPts) < 0) return true;
    this.movedOn.add(pid);
    return false;
  }
}
