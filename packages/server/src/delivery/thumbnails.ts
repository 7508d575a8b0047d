import type { Engine } from '../engine/engine.js';
import { thumbnailArgs } from '../engine/ffmpeg/output-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';

export interface ThumbnailDeps {
  engine: Engine;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

interface Thumbnailer {
  bus: PacketBus;
  remux: Supervisor;
  unsubscribe: () => void;
  latest: Buffer | undefined;
}

/** Previews are at most this wide (height follows the picture's aspect). */
const MAX_WIDTH = 640;
/** A JPEG larger than this is not a preview: the parser drops what it holds. */
const MAX_JPEG_BYTES = 4 * 1024 * 1024;

/**
 * Thumbnails (spec 001 §2 Process: "Generate picture for each output segment"): for each running
 * stream with thumbnails enabled, an ffmpeg decodes the keyframes only — segments start on one —
 * and writes each as a JPEG; the newest is served at /{name}/preview.jpg.
 */
export class Thumbnails {
  private readonly items = new Map<string, Thumbnailer>();
  private readonly ticker: NodeJS.Timeout;

  constructor(private readonly deps: ThumbnailDeps) {
    this.ticker = setInterval(() => this.sync(), 1000);
    this.ticker.unref();
  }

  latest(name: string): Buffer | undefined {
    return this.items.get(name)?.latest;
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
      if (!runtime || runtime.bus !== item.bus || item.remux.state === 'failed') void this.stop(name);
    }
    for (const [name, runtime] of wanted) if (!this.items.has(name)) this.start(name, runtime.bus!);
  }

  private start(name: string, bus: PacketBus): void {
    const jpegs = new JpegSplitter((jpeg) => {
      const item = this.items.get(name);
      if (item) item.latest = jpeg;
    });
    const remux = new Supervisor({
      binary: this.deps.ffmpegPath,
      args: thumbnailArgs(MAX_WIDTH),
      env: this.deps.env,
      withStdin: true,
      restart: false,
      logLines: 20,
      onStdout: (chunk) => jpegs.push(chunk),
    });
    remux.start();
    const write = (chunk: Buffer) => remux.stdin?.write(chunk);
    for (const part of bus.segmenter.liveStart()) write(part);
    this.items.set(name, { bus, remux, unsubscribe: bus.subscribe(write), latest: undefined });
  }

  private async stop(name: string): Promise<void> {
    const item = this.items.get(name);
    if (!item) return;
    this.items.delete(name);
    item.unsubscribe();
    item.remux.stdin?.end();
    await item.remux.stop();
  }
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
