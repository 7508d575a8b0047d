import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dashArgs, dashCodec, dashCutAfterS } from '../engine/ffmpeg/output-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';
import { backlog } from './dash-backlog.js';
import { firstPtsS, IngestClock } from './dash-ingest-clock.js';
import { longestSegmentS, parseTimelines, rewriteMpd } from './dash-mpd.js';

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
  clock: IngestClock;
  /** PTS (s) of the first access unit given to ffmpeg: the source time of its timeline's start. */
  startPtsS: number | undefined;
  targetS: number;
  /** Media time (s) of the timeline's first segment, once ffmpeg has listed it. */
  originS?: number;
  /** Fixed on the first manifest answered: players read it on every refresh. */
  availabilityStartMs?: number;
  maxSegmentS: number;
  /**
   * The newest $Number$ a manifest listed, by representation: a request for a later one waits for
   * it. Each track counts its own: ffmpeg numbers a track's segments as it flushes that track.
   */
  newestNumbers: Map<string, number>;
}

/** A packager no DASH player asked anything of for this long is stopped. */
const IDLE_MS = 30_000;
/** How long a first manifest request waits for ffmpeg to write one. */
const FIRST_MANIFEST_WAIT_MS = 10_000;
/** How long a request for the segment after the newest listed waits for it to be written. */
const NEXT_SEGMENT_WAIT_MS = 3_000;
const POLL_MS = 50;
/**
 * suggestedPresentationDelay, in segments. ffmpeg says one segment: a player that far behind the
 * live edge needs each segment the moment it is made, and dash.js stalled 3 s at its start.
 */
const PRESENTATION_DELAY_SEGMENTS = 3;

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
   * dash-mpd.ts); undefined when it can't be made. The first one waits for ffmpeg's first segment
   * and for a live access unit to date the timeline by.
   */
  async manifest(runtime: StreamRuntime, timeUrl: string): Promise<string | undefined> {
    const deadline = Date.now() + FIRST_MANIFEST_WAIT_MS;
    for (;;) {
      // Not startable yet while the stream's codecs are still unknown (a publish just begun).
      const packager = await this.ensure(runtime);
      const text =
        packager && (await readFile(join(packager.dir, 'index.mpd'), 'utf8').catch(() => undefined));
      const answer = packager && text && this.correct(packager, text, timeUrl);
      if (answer) return answer;
      if (Date.now() > deadline || (packager && !alive(packager))) return undefined;
      await delay(POLL_MS);
    }
  }

  /**
   * A segment or init file of a running packager. A player whose clock runs a little ahead asks
   * for the next segment just before ffmpeg has written it: that request waits for it.
   */
  async file(runtime: StreamRuntime, name: string): Promise<Buffer | undefined> {
    const packager = this.items.get(runtime.name);
    if (!packager || packager.bus !== runtime.bus) return undefined;
    packager.lastUsedAt = Date.now();
    const [, representation = '', number = '0'] = /^chunk-stream(\d+)-(\d+)\.m4s$/.exec(name) ?? [];
    const next = Number(number) > (packager.newestNumbers.get(representation) ?? 0);
    const deadline = Date.now() + (next ? NEXT_SEGMENT_WAIT_MS : 0);
    for (;;) {
      const data = await readFile(join(packager.dir, name)).catch(() => undefined);
      if (data || Date.now() > deadline || !alive(packager)) return data;
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
    const remux = new Supervisor({
      binary: this.deps.ffmpegPath,
      args: dashArgs({ manifestPath: join(dir, 'index.mpd'), videoCodec, audioCodec, cutAfterS }),
      env: this.deps.env,
      withStdin: true,
      restart: false,
      logLines: 20,
      onStdout: () => undefined,
      onLine: (line) => runtime.log.note(`dash: ${line}`),
    });
    remux.start();
    const clock = new IngestClock();
    const write = (chunk: Buffer) => remux.stdin?.write(chunk);
    const live = (chunk: Buffer) => {
      clock.observe(chunk, Date.now());
      write(chunk);
    };
    const start = backlog(bus.segmenter, targetMs);
    for (const part of start) write(part);
    const packager: Packager = {
      bus,
      dir,
      remux,
      unsubscribe: bus.subscribe(live),
      lastUsedAt: Date.now(),
      clock,
      startPtsS: firstPtsS(start),
      targetS: targetMs / 1000,
      maxSegmentS: targetMs / 1000,
      newestNumbers: new Map(),
    };
    this.items.set(runtime.name, packager);
    return packager;
  }

  /**
   * ffmpeg's MPD with a clock: media time 0 of its timeline is the source's `startPtsS` (ffmpeg
   * shifts its input to start at 0), and TS time 0 came in at the ingest clock's offset.
   * Undefined until both are known.
   */
  private correct(packager: Packager, text: string, timeUrl: string): string | undefined {
    const timelines = parseTimelines(text);
    const first = timelines.find((t) => t.contentType === 'video') ?? timelines[0];
    const newest = first?.segments.at(-1);
    if (!first || !newest) return undefined;
    const origin = first.segments[0]!;
    if (origin.number === 1) packager.originS ??= origin.t / first.timescale;
    if (packager.availabilityStartMs === undefined) {
      const offsetMs = packager.clock.offsetMs;
      if (packager.originS === undefined || packager.startPtsS === undefined) {
        // Not seen from its start (no live packet for a whole window): ffmpeg's own clock.
        packager.availabilityStartMs = Date.parse(/availabilityStartTime="([^"]+)"/.exec(text)?.[1] ?? '');
        if (Number.isNaN(packager.availabilityStartMs)) packager.availabilityStartMs = Date.now();
      } else if (offsetMs === undefined) {
        return undefined;
      } else {
        packager.availabilityStartMs = offsetMs + (packager.startPtsS - packager.originS) * 1000;
      }
    }
    for (const set of timelines) {
      const number = set.segments.at(-1)?.number ?? 0;
      const known = packager.newestNumbers.get(set.representationId) ?? 0;
      packager.newestNumbers.set(set.representationId, Math.max(known, number));
    }
    packager.maxSegmentS = Math.max(packager.maxSegmentS, longestSegmentS(timelines));
    return rewriteMpd(
      text,
      {
        availabilityStartMs: packager.availabilityStartMs,
        maxSegmentS: packager.maxSegmentS,
        nowMs: Date.now(),
        presentationDelayS: PRESENTATION_DELAY_SEGMENTS * packager.targetS,
      },
      timeUrl,
    );
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

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A packager whose ffmpeg ended (a timestamp jump it could not take, a crash) is replaced on the next request. */
function alive(packager: Packager): boolean {
  return packager.remux.state === 'starting' || packager.remux.state === 'running';
}
