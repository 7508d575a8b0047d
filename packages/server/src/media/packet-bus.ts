import { HlsSegmenter, type SegmenterOptions } from './hls-segmenter.js';
import { ProgramFilter } from './program-filter.js';
import { RateWindow } from './rate-window.js';
import { TsDemux } from './ts-demux.js';
import { TsPacketizer } from './ts-packetizer.js';

export type ChunkListener = (packets: Buffer) => void;

/**
 * One live stream inside the engine: bytes from a source go in, whole MPEG-TS packets come out to
 * the demuxer (tracks, keyframes, errors), the HLS segmenter and every subscriber (continuous-TS
 * clients, pushes), in that order and synchronously, so a subscriber added between two chunks
 * neither misses nor repeats a packet. Subscribers get what the segmenter lets through: after a
 * source switch, the new source from its first keyframe, each PID flagged as a discontinuity.
 */
export class PacketBus {
  readonly demux: TsDemux;
  readonly segmenter: HlsSegmenter;
  /** Bytes received from the source, per second over 5 s, and in total. */
  readonly input = new RateWindow(5);
  /** When the last whole packet arrived (ms since epoch); 0 before the first. */
  lastPacketAt = 0;
  private readonly packetizer = new TsPacketizer();
  private readonly listeners = new Set<ChunkListener>();
  private programFilter: ProgramFilter | undefined;

  constructor(options: SegmenterOptions & { program?: number }) {
    this.demux = new TsDemux(options.program);
    this.segmenter = new HlsSegmenter(this.demux, options, (packets) => {
      for (const listener of this.listeners) listener(packets);
    });
  }

  write(chunk: Buffer, nowMs = Date.now()): void {
    this.input.add(chunk.length, nowMs);
    const aligned = this.packetizer.push(chunk);
    const packets = this.programFilter ? this.programFilter.filter(aligned) : aligned;
    if (packets.length === 0) return;
    this.lastPacketAt = nowMs;
    this.demux.pushChunk(packets, nowMs);
    this.segmenter.pushChunk(packets);
  }

  /** Keeps only this program, these PIDs, and subtitles or not, of a source (none: the stream as it comes). */
  selectProgram(program: number | undefined, pids?: ReadonlySet<number>, subtitles = true): void {
    this.programFilter =
      program === undefined && !pids && subtitles ? undefined : new ProgramFilter(program, pids, subtitles);
  }

  subscribe(listener: ChunkListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /**
   * The source changed: continuity counters and timestamps start over, and that is no error.
   * `planned`: the next source's data follows at once (an ad break), so no outage is in the timeline.
   */
  discontinuity(planned = false): void {
    this.packetizer.reset();
    this.demux.resetContinuity();
    this.segmenter.markDiscontinuity(planned);
  }

  /** Bytes the packetizer threw away hunting for sync. */
  get droppedBytes(): number {
    return this.packetizer.droppedBytes;
  }
}
