import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dashArgs, dashCodec, dashCutAfterS } from '../engine/ffmpeg/output-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import { backlog } from './dash-backlog.js';
import { firstPtsS, IngestClock } from './dash-ingest-clock.js';
import { composeManifest, type Packager, type Period, running } from './dash-period-mpd.js';
import { keyframeStart, spliceStart } from './dash-periods.js';

export interface DashDeps {
  /** A folder of its own, removed at start and at close. */
  root: string;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

/** A packager no DASH player asked anything of for this long is stopped. */
const IDLE_MS = 30_000;
/** How long a first manifest request waits for ffmpeg to write one. */
const FIRST_MANIFEST_WAIT_MS = 10_000;
/** How long a request for the segment after the newest listed waits for it to be written. */
const NEXT_SEGMENT_WAIT_MS = 3_000;
const POLL_MS = 50;
/**
 * A period whose input stops this long is ended: ffmpeg writes its last segment (the source's
 * last frames) at once rather than when the next source is found, source_timeout later. dash.js
 * in Chromium that ran dry before that last piece came and then got under a second of it before
 * the gap to the next period froze for good (Chromium waits for more, dash.js jumps gaps only
 * within 0.3 s of the end). 1.5 s: the piece is then listed (a refresh later) before a player
 * three segments behind runs dry, and a loaded server's pause of a second splits nothing (the
 * same source back starts a new period at its next keyframe: what came before it is lost).
 */
const SILENCE_MS = 1500;

/**
 * DASH (index.mpd, spec 000 §9) through ffmpeg's DASH muxer: the stream's packet bus goes in on
 * stdin and fragmented-MP4 segments come out in a folder, served from there. A packager runs per
 * stream only while DASH players ask for it. (HLS, the common case, is packaged in process.)
 */
export class DashPackagers {
  private readonly items = new Map<string, Packager>();
  /** Starts in progress, by stream: a second request waits for the first one's packager. */
  private readonly starting = new Map<string, Promise<Packager | undefined>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly deps: DashDeps) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), 5000);
    this.sweeper.unref();
  }

  /**
   * The manifest of the stream's DASH output, started on first use, its clock corrected (see
   * dash-mpd.ts), one Period per splice; undefined when it can't be made. The first one waits for
   * ffmpeg's first segment and for a live access unit to date the timeline by.
   */
  async manifest(runtime: StreamRuntime, timeUrl: string): Promise<string | undefined> {
    const deadline = Date.now() + FIRST_MANIFEST_WAIT_MS;
    for (;;) {
      // Not startable yet while the stream's codecs are still unknown (a publish just begun).
      const packager = await this.ensure(runtime);
      const answer = packager && (await composeManifest(packager, timeUrl));
      if (answer) return answer;
      if (Date.now() > deadline || (packager && !alive(packager))) return undefined;
      await delay(POLL_MS);
    }
  }

  /**
   * A segment or init file of a running packager, of period `periodId` (0 when not given). A
   * player whose clock runs a little ahead asks for the next segment just before ffmpeg has
   * written it: that request waits for it.
   */
  async file(runtime: StreamRuntime, name: string, periodId = 0): Promise<Buffer | undefined> {
    const packager = this.items.get(runtime.name);
    if (!packager || packager.bus !== runtime.bus) return undefined;
    const period = packager.periods.find((p) => p.id === periodId);
    if (!period) return undefined;
    packager.lastUsedAt = Date.now();
    const [, representation = '', number = '0'] = /^chunk-stream(\d+)-(\d+)\.m4s$/.exec(name) ?? [];
    const next = Number(number) > (period.newestNumbers.get(representation) ?? 0);
    const deadline = Date.now() + (next ? NEXT_SEGMENT_WAIT_MS : 0);
    for (;;) {
      const data = await readFile(join(period.dir, name)).catch(() => undefined);
      if (data || Date.now() > deadline || !running(period)) return data;
      await delay(POLL_MS);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.items.keys()].map((name) => this.stop(name)));
    await rm(this.deps.root, { recursive: true, force: true });
  }

  /**
   * The stream's running packager, started if need be. Starting awaits (folder cleanup), and two
   * requests at once used to start two ffmpegs in one folder: each deleted the other's files, one
   * died, and its replacement came with a new timeline and clock (dash.js stalled 2–5 s).
   */
  private ensure(runtime: StreamRuntime): Promise<Packager | undefined> {
    const pending = this.starting.get(runtime.name);
    if (pending) return pending;
    const started = this.start(runtime).finally(() => this.starting.delete(runtime.name));
    this.starting.set(runtime.name, started);
    return started;
  }

  private async start(runtime: StreamRuntime): Promise<Packager | undefined> {
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
    const targetMs = runtime.spec.segmentDurationMs;
    const fps = tracks.find((t) => t.content === 'video')?.fps;
    const cutAfterS = dashCutAfterS(targetMs, fps);
    const period = (id: number, first: Buffer[]): Period => {
      const periodDir = id === 0 ? dir : join(dir, `p${id}`);
      mkdirSync(periodDir, { recursive: true });
      const remux = new Supervisor({
        binary: this.deps.ffmpegPath,
        args: dashArgs({ manifestPath: join(periodDir, 'index.mpd'), videoCodec, audioCodec, cutAfterS }),
        env: this.deps.env,
        withStdin: true,
        restart: false,
        logLines: 20,
        onStdout: () => undefined,
        onLine: (line) => runtime.log.note(`dash: ${line}`),
      });
      remux.start();
      for (const part of first) remux.stdin?.write(part);
      return {
        id,
        dir: periodDir,
        remux,
        clock: new IngestClock(),
        startPtsS: firstPtsS(first),
        newestNumbers: new Map(),
      };
    };
    // The current splice's PIDs (dash-periods.ts), from the backlog on.
    const splicePids = new Set<number>();
    const start = backlog(bus.segmenter, targetMs);
    for (const part of start) registerSplices(part, splicePids);
    const feed = (to: Period, data: Buffer) => {
      to.clock.observe(data, Date.now());
      to.remux.stdin?.write(data);
    };
    let lastChunkAtMs = Date.now();
    const end = (current: Period) => {
      if (current.endedAtMs !== undefined) return;
      current.remux.stdin?.end();
      current.endedAtMs = Date.now();
    };
    const open = (from: Buffer) => {
      const next = period(packager.periods.at(-1)!.id + 1, [bus.demux.psiPackets]);
      next.startPtsS = firstPtsS([from]);
      packager.periods.push(next);
      feed(next, from);
    };
    const live = (chunk: Buffer) => {
      lastChunkAtMs = Date.now();
      const current = packager.periods.at(-1)!;
      const at = spliceStart(chunk, splicePids);
      if (at >= 0) {
        // A new source: the old ffmpeg finishes its last segment; a new one starts at the keyframe.
        if (at > 0 && current.endedAtMs === undefined) feed(current, chunk.subarray(0, at));
        end(current);
        registerSplices(chunk.subarray(at + 188), splicePids);
        return open(chunk.subarray(at));
      }
      if (current.endedAtMs === undefined) return feed(current, chunk);
      // Ended by silence and the same source back: a new period from its next keyframe.
      const keyframe = keyframeStart(chunk);
      if (keyframe >= 0) open(chunk.subarray(keyframe));
    };
    const silenceTimer = setInterval(() => {
      const current = packager.periods.at(-1)!;
      if (Date.now() - lastChunkAtMs > SILENCE_MS && current.mpd) end(current);
    }, 100);
    silenceTimer.unref();
    const packager: Packager = {
      bus,
      dir,
      periods: [period(0, start)],
      unsubscribe: bus.subscribe(live),
      lastUsedAt: Date.now(),
      targetS: targetMs / 1000,
      maxSegmentS: targetMs / 1000,
      silenceTimer,
    };
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
    clearInterval(packager.silenceTimer);
    await Promise.all(
      packager.periods.map((period) => {
        period.remux.stdin?.end();
        return period.remux.stop();
      }),
    );
    await rm(packager.dir, { recursive: true, force: true });
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A packager whose live ffmpeg ended by itself (a crash) is replaced on the next request. */
const alive = (packager: Packager): boolean => {
  const live = packager.periods.at(-1)!;
  return live.endedAtMs !== undefined || running(live);
};

/** Notes the flagged PIDs of a chunk as the current splice's (no new period: see dash-periods.ts). */
function registerSplices(chunk: Buffer, seen: Set<number>): void {
  let rest = chunk;
  for (let at = spliceStart(rest, seen); at >= 0; at = spliceStart(rest, seen))
    rest = rest.subarray(at + 188);
}
