import type { Engine } from '../engine/engine.js';
import { thumbnailArgs } from '../engine/ffmpeg/output-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';
import { PACKET_SIZE, payloadOffset, pidOf, startsUnit } from '../media/ts-packet.js';

export interface ThumbnailDeps {
  engine: Engine;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

interface Thumbnailer {
  bus: PacketBus;
  unsubscribe: () => void;
  latest: Buffer | undefined;
  /** A cut came whose keyframe has not been decoded yet. */
  wanted: boolean;
  /** The ffmpeg decoding a picture now. */
  decoding: Supervisor | undefined;
  /** A newer cut came while decoding: decode again once done. */
  again: boolean;
}

/** What the thumbnailer holds and moves (Pulse's thumbnailer_memusage, _in, _out). */
export interface ThumbnailerUsage {
  /** Pids of the decoders running now (their memory is read from /proc by Pulse). */
  pids: number[];
  /** Bytes of the newest pictures kept for /{name}/preview.jpg. */
  heldBytes: number;
  /** Bytes written to decoders (MPEG-TS) and read from them (JPEG) since the server started. */
  bytesIn: number;
  bytesOut: number;
}

/** Previews are at most this wide (height follows the picture's aspect). */
const MAX_WIDTH = 640;
/** A JPEG larger than this is not a preview: the parser drops what it holds. */
const MAX_JPEG_BYTES = 4 * 1024 * 1024;
/** A decode of one picture that takes longer is stuck: killed, the next cut tries again. */
const DECODE_TIMEOUT_MS = 20_000;

/**
 * Thumbnails (spec 001 §2 Process: "Generate picture for each output segment"): for each running
 * stream with thumbnails enabled, at each new segment an ffmpeg decodes the open segment's first
 * keyframe alone and writes it as a JPEG; the newest is served at /{name}/preview.jpg.
 * Why one short ffmpeg per segment and not one kept running with -skip_frame nokey: a decoder
 * outputs a picture only once later ones came (one keyframe, plus the reorder depth with B-frames,
 * when only keyframes are decoded), so a running one showed a picture 3 GOPs old; at the end of
 * its input a decoder gives out everything at once.
 */
export class Thumbnails {
  private readonly items = new Map<string, Thumbnailer>();
  private readonly ticker: NodeJS.Timeout;
  private bytesIn = 0;
  private bytesOut = 0;

  constructor(private readonly deps: ThumbnailDeps) {
    this.ticker = setInterval(() => this.sync(), 1000);
    this.ticker.unref();
  }

  latest(name: string): Buffer | undefined {
    return this.items.get(name)?.latest;
  }

  usage(): ThumbnailerUsage {
    const pids: number[] = [];
    let heldBytes = 0;
    for (const item of this.items.values()) {
      const pid = item.decoding?.status().pid;
      if (pid !== undefined) pids.push(pid);
      heldBytes += item.latest?.length ?? 0;
    }
    return { pids, heldBytes, bytesIn: this.bytesIn, bytesOut: this.bytesOut };
  }

  async close(): Promise<void> {
    clearInterval(this.ticker);
    await Promise.all([...this.items.keys()].map((name) => this.stop(name)));
  }

  /** Starts thumbnailers for the streams that want one, and stops the rest. */
  private sync(): void {
    const wanted = new Map<string, StreamRuntime>();
    for (const runtime of this.deps.engine.runtimes()) {
      if (runtime.spec.thumbnails && runtime.bus) wanted.set(runtime.name, runtime);
    }
    for (const [name, item] of this.items) {
      const runtime = wanted.get(name);
      if (!runtime || runtime.bus !== item.bus) void this.stop(name);
    }
    for (const [name, runtime] of wanted) if (!this.items.has(name)) this.start(name, runtime.bus!);
  }

  private start(name: string, bus: PacketBus): void {
    const item: Thumbnailer = {
      bus,
      unsubscribe: () => undefined,
      latest: undefined,
      // The open segment's keyframe is the newest there is: a picture of it at once.
      wanted: true,
      decoding: undefined,
      again: false,
    };
    const offSegment = bus.segmenter.onSegment(() => {
      item.wanted = true;
    });
    const offChunk = bus.subscribe(() => {
      // The open segment starts with the keyframe; it is whole once the next unit began in it.
      if (!item.wanted || primaryUnitStarts(bus.segmenter.liveStart(), bus.demux.primaryPid, 2) < 2) return;
      item.wanted = false;
      this.decode(item);
    });
    item.unsubscribe = () => {
      offSegment();
      offChunk();
    };
    this.items.set(name, item);
  }

  /** Decodes the open segment's keyframe; a cut meanwhile asks for one more decode after. */
  private decode(item: Thumbnailer): void {
    if (item.decoding) {
      item.again = true;
      return;
    }
    // No picture to take from an audio-only stream.
    if (!item.bus.demux.tracks(Date.now()).some((t) => t.content === 'video')) return;
    const parts = item.bus.segmenter.liveStart();
    if (parts.length === 0) return;
    const jpegs = new JpegSplitter((jpeg) => (item.latest = jpeg));
    const decoder = new Supervisor({
      binary: this.deps.ffmpegPath,
      args: thumbnailArgs(MAX_WIDTH),
      env: this.deps.env,
      withStdin: true,
      restart: false,
      logLines: 20,
      onStdout: (chunk) => {
        this.bytesOut += chunk.length;
        jpegs.push(chunk);
      },
      onStateChange: (to) => {
        if (to === 'starting' || to === 'running' || to === 'finishing') return;
        clearTimeout(timer);
        item.decoding = undefined;
        // Unless a newer cut's keyframe is still coming in: its own count calls for it.
        if (item.again && !item.wanted) this.decode(item);
        item.again = false;
      },
    });
    item.decoding = decoder;
    // Set before start(): the state changes it is cleared on come from start() on.
    const timer = setTimeout(() => void decoder.stop(), DECODE_TIMEOUT_MS);
    decoder.start();
    const stdin = decoder.stdin;
    // A decoder that could not start (no ffmpeg) has no stdin; its state change above cleans up.
    if (!stdin) return;
    stdin.on('error', () => undefined);
    for (const part of parts) {
      this.bytesIn += part.length;
      stdin.write(part);
    }
    stdin.end();
  }

  private async stop(name: string): Promise<void> {
    const item = this.items.get(name);
    if (!item) return;
    this.items.delete(name);
    item.unsubscribe();
    item.again = false;
    await item.decoding?.stop();
  }
}

/** How many units of the primary track start in aligned TS packets, counting up to `enough`. */
function primaryUnitStarts(parts: readonly Buffer[], primaryPid: number | undefined, enough: number): number {
  let count = 0;
  if (primaryPid === undefined) return 0;
  for (const part of parts) {
    for (let o = 0; o + PACKET_SIZE <= part.length; o += PACKET_SIZE) {
      if (startsUnit(part, o) && pidOf(part, o) === primaryPid && payloadOffset(part, o) >= 0) count++;
      if (count >= enough) return count;
    }
  }
  return count;
}

/** Cuts concatenated JPEGs (image2pipe) at their end-of-image markers; FF D9 can't occur inside one. */
export class JpegSplitter {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly onJpeg: (jpeg: Buffer) => void) {}

  push(chunk: Buffer): void {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      const start = data.indexOf(SOI);
      if (start < 0) {
        // Keep a trailing FF: it may be the first half of the next start marker.
        data = data.at(-1) === 0xff ? data.subarray(-1) : Buffer.alloc(0);
        break;
      }
      const end = data.indexOf(EOI, start + 2);
      if (end < 0) {
        data = data.subarray(start);
        break;
      }
      this.onJpeg(Buffer.from(data.subarray(start, end + 2)));
      data = data.subarray(end + 2);
    }
    this.pending = data.length > MAX_JPEG_BYTES ? Buffer.alloc(0) : Buffer.from(data);
  }
}

const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);
