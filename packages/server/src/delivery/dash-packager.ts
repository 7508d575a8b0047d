import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dashArgs, dashCodec } from '../engine/ffmpeg/output-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';

export interface DashDeps {
  /** A folder of its own, removed at start and at close. */
  root: string;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

interface Packager {
  bus: PacketBus;
  dir: string;
  remux: Supervisor;
  unsubscribe: () => void;
  lastUsedAt: number;
}

/** A packager no DASH player asked anything of for this long is stopped. */
const IDLE_MS = 30_000;
/** How long a first manifest request waits for ffmpeg to write one. */
const FIRST_MANIFEST_WAIT_MS = 10_000;

/**
 * DASH (index.mpd, spec 000 §9) through ffmpeg's DASH muxer: the stream's packet bus goes in on
 * stdin and fragmented-MP4 segments come out in a folder, served from there. A packager runs per
 * stream only while DASH players ask for it. (HLS, the common case, is packaged in process.)
 */
export class DashPackagers {
  private readonly items = new Map<string, Packager>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly deps: DashDeps) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), 5000);
    this.sweeper.unref();
  }

  /** The manifest of the stream's DASH output, started on first use; undefined when it can't be made. */
  async manifest(runtime: StreamRuntime): Promise<Buffer | undefined> {
    const packager = await this.ensure(runtime);
    if (!packager) return undefined;
    const deadline = Date.now() + FIRST_MANIFEST_WAIT_MS;
    for (;;) {
      const text = await readFile(join(packager.dir, 'index.mpd')).catch(() => undefined);
      if (text || Date.now() > deadline || this.items.get(runtime.name) !== packager) return text;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** A segment or init file of a running packager. */
  async file(runtime: StreamRuntime, name: string): Promise<Buffer | undefined> {
    const packager = this.items.get(runtime.name);
    if (!packager || packager.bus !== runtime.bus) return undefined;
    packager.lastUsedAt = Date.now();
    return readFile(join(packager.dir, name)).catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.items.keys()].map((name) => this.stop(name)));
    await rm(this.deps.root, { recursive: true, force: true });
  }

  private async ensure(runtime: StreamRuntime): Promise<Packager | undefined> {
    const bus = runtime.bus;
    if (!bus) return undefined;
    const existing = this.items.get(runtime.name);
    if (existing?.bus === bus && alive(existing)) {
      existing.lastUsedAt = Date.now();
      return existing;
    }
    if (existing) await this.stop(runtime.name);
    const tracks = bus.demux.tracks(Date.now());
    const videoCodec = tracks.find((t) => t.content === 'video')?.codec;
    const audioCodec = tracks.find((t) => t.content === 'audio')?.codec;
    if (!dashCodec(videoCodec) && !dashCodec(audioCodec)) return undefined;
    const dir = join(this.deps.root, createHash('sha256').update(runtime.name).digest('hex').slice(0, 16));
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const segmentSeconds = Math.max(1, Math.round(runtime.spec.segmentDurationMs / 1000));
    const remux = new Supervisor({
      binary: this.deps.ffmpegPath,
      args: dashArgs({ manifestPath: join(dir, 'index.mpd'), videoCodec, audioCodec, segmentSeconds }),
      env: this.deps.env,
      withStdin: true,
      restart: false,
      logLines: 20,
      onStdout: () => undefined,
      onLine: (line) => runtime.log.note(`dash: ${line}`),
    });
    remux.start();
    const write = (chunk: Buffer) => remux.stdin?.write(chunk);
    // From the open segment's keyframe, so the packager's first fragment decodes.
    for (const part of bus.segmenter.liveStart()) write(part);
    const packager: Packager = { bus, dir, remux, unsubscribe: bus.subscribe(write), lastUsedAt: Date.now() };
    this.items.set(runtime.name, packager);
    return packager;
  }

  private sweep(nowMs: number): void {
    for (const [name, packager] of this.items) {
      if (nowMs - packager.lastUsedAt > IDLE_MS || !alive(packager)) void this.stop(name);
    }
  }

  private async stop(name: string): Promise<void> {
    const packager = this.items.get(name);
    if (!packager) return;
    this.items.delete(name);
    packager.unsubscribe();
    packager.remux.stdin?.end();
    await packager.remux.stop();
    await rm(packager.dir, { recursive: true, force: true });
  }
}

/** A packager whose ffmpeg ended (a timestamp jump it could not take, a crash) is replaced on the next request. */
function alive(packager: Packager): boolean {
  return packager.remux.state === 'starting' || packager.remux.state === 'running';
}
