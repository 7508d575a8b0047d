import { ProgramFilter } from './program-filter.js';
import { TsDemux } from './ts-demux.js';
import { TsPacketizer } from './ts-packetizer.js';

/**
 * Reads a source that is not on air yet (a better source being probed) until its first keyframe
 * of the primary track: switching to it only then leaves no gap, since the bus drops everything of
 * a new source before its first keyframe. Sees the source as the bus will (same program and PIDs).
 */
export class KeyframeWatch {
  private readonly packetizer = new TsPacketizer();
  private readonly demux: TsDemux;
  private readonly filter: ProgramFilter | undefined;
  private seen = false;

  constructor(program?: number, pids?: ReadonlySet<number>) {
    this.demux = new TsDemux(program);
    this.filter = program === undefined && !pids ? undefined : new ProgramFilter(program, pids);
  }

  /** Reads `chunk`; true once a keyframe has come. */
  push(chunk: Buffer): boolean {
    if (this.seen) return true;
    const aligned = this.packetizer.push(chunk);
    const packets = this.filter ? this.filter.filter(aligned) : aligned;
    this.demux.pushChunk(packets, Date.now());
    this.seen = this.demux.frames.some((f) => f.keyframe);
    this.demux.frames.length = 0;
    return this.seen;
  }
}
