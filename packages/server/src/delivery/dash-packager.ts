import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dashArgs, dashCodec, dashCutAfterS } from '../engine/ffmpeg/output-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';
import { backlog } from './dash-backlog.js';
import { firstPtsS, IngestClock } from './dash-ingest-clock.js';
import { longestSegmentS, parseTimelines, rewriteMpd } from './dash-mpd.js';
import { composePeriods, keyframeStart, type PeriodText, spliceStart } from './dash-periods.js';

export interface DashDeps {
  /** A folder of its own, removed at start and at close. */
  root: string;
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

/** One ffmpeg's output: the stream from one splice (or the packager's start) to the next. */
interface Period {
  id: number;
  /** Its folder: the packager's own for period 0, p<id>/ in it for the others. */
  dir: string;
  remux: Supervisor;
  clock: IngestClock;
  /** PTS (s) of the first access unit given to its ffmpeg: the source time of its timeline's start. */
  startPtsS: number | undefined;
  /** Media time (s) of its timeline's first segment, once ffmpeg has listed it. */
  originS?: number;
  /** Period@start (s), fixed once known (period 0: 0). */
  startS?: number;
  /** The newest MPD its ffmpeg wrote. */
  mpd?: string;
  /**
   * The newest $Number$ a manifest listed, by representation: a request for a later one waits for
   * it. Each track counts its own: ffmpeg numbers a track's segments as it flushes that track.
   */
  newestNumbers: Map<string, number>;
  /** When its input ended (a splice started the next), ms since epoch. */
  endedAtMs?: number;
}

interface Packager {
  bus: PacketBus;
  dir: string;
  /** Oldest first; the last one is live. */
  periods: Period[];
  unsubscribe: () => void;
  lastUsedAt: number;
  targetS: number;
  /** Fixed on the first manifest answered: players read it on every refresh. */
  availabilityStartMs?: number;
  maxSegmentS: number;
  /** The newest MPD of a live ffmpeg: the MPD element and header every answer is made of. */
  head?: string;
  /** Ends the live period when its input has stopped for SILENCE_MS. */
  silenceTimer: NodeJS.Timeout;
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
/** An ended period stays listed (and its files kept) this long after its end. */
const PERIOD_KEEP_MS = 40_000;
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
      const answer = packager && (await this.compose(packager, timeUrl));
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

  /**
   * The MPD players get: the periods' MPDs (each ffmpeg's, read afresh) as one, with a clock.
   * Media time 0 of period 0's timeline is the source's `startPtsS` (ffmpeg shifts its input to
   * start at 0), and TS time 0 came in at the ingest clock's offset: that dates
   * availabilityStartTime. A later period starts where the wall clock was when its first
   * keyframe came in. Undefined until period 0 has a segment and a clock.
   */
  private async compose(packager: Packager, timeUrl: string): Promise<string | undefined> {
    for (const period of packager.periods) {
      const text = await readFile(join(period.dir, 'index.mpd'), 'utf8').catch(() => undefined);
      if (text) period.mpd = text;
      // ffmpeg's last MPD, written as its input ends, is static: the answer stays dynamic.
      if (text?.includes('type="dynamic"')) packager.head = text;
    }
    const zero = packager.periods[0]!;
    if (
      packager.availabilityStartMs === undefined &&
      !(zero.id === 0 && zero.mpd && this.date(packager, zero))
    )
      return undefined;
    if (!packager.head) return undefined;
    const listed: { period: Period; mpd: string }[] = [];
    const nowMs = Date.now();
    for (const period of packager.periods) {
      if (!period.mpd || expired(period, nowMs) || !this.date(packager, period)) continue;
      listed.push({ period, mpd: period.mpd });
    }
    for (const { period, mpd } of listed) {
      const timelines = parseTimelines(mpd);
      for (const set of timelines) {
        const number = set.segments.at(-1)?.number ?? 0;
        const known = period.newestNumbers.get(set.representationId) ?? 0;
        period.newestNumbers.set(set.representationId, Math.max(known, number));
      }
      packager.maxSegmentS = Math.max(packager.maxSegmentS, longestSegmentS(timelines));
    }
    this.prune(packager, nowMs);
    if (listed.length === 0) return undefined;
    const only = listed.length === 1 && listed[0]!.period.id === 0;
    const text = only
      ? packager.head
      : composePeriods(
          packager.head,
          listed.map(({ period, mpd }): PeriodText => ({
            id: period.id,
            startS: period.startS!,
            offsetS: period.id === 0 ? 0 : period.originS!,
            mpd,
            query: period.id === 0 ? '' : `p=${period.id}`,
          })),
        );
    return rewriteMpd(
      text,
      {
        availabilityStartMs: packager.availabilityStartMs!,
        maxSegmentS: packager.maxSegmentS,
        nowMs,
        presentationDelayS: PRESENTATION_DELAY_SEGMENTS * packager.targetS,
      },
      timeUrl,
    );
  }

  /** Sets the period's origin and start (and, for period 0, availabilityStartTime) once known. */
  private date(packager: Packager, period: Period): boolean {
    if (period.startS !== undefined) return true;
    const timelines = parseTimelines(period.mpd ?? '');
    const video = timelines.find((t) => t.contentType === 'video') ?? timelines[0];
    const origin = video?.segments[0];
    if (!video || !origin) return false;
    if (origin.number === 1) period.originS ??= origin.t / video.timescale;
    const offsetMs = period.clock.offsetMs;
    if (period.id === 0) {
      if (period.originS === undefined || period.startPtsS === undefined) {
        // Not seen from its start (no live packet for a whole window): ffmpeg's own clock.
        const own = Date.parse(/availabilityStartTime="([^"]+)"/.exec(period.mpd ?? '')?.[1] ?? '');
        packager.availabilityStartMs = Number.isNaN(own) ? Date.now() : own;
      } else if (offsetMs === undefined) {
        return false;
      } else {
        packager.availabilityStartMs = offsetMs + (period.startPtsS - period.originS) * 1000;
      }
      period.startS = 0;
      return true;
    }
    const ast = packager.availabilityStartMs;
    if (
      ast === undefined ||
      offsetMs === undefined ||
      period.startPtsS === undefined ||
      period.originS === undefined
    )
      return false;
    const before = packager.periods[packager.periods.indexOf(period) - 1]?.startS ?? 0;
    period.startS = Math.max(before + 0.001, (offsetMs + period.startPtsS * 1000 - ast) / 1000);
    return true;
  }

  /** Ended periods past keeping: no longer listed, ffmpeg gone, files removed. */
  private prune(packager: Packager, nowMs: number): void {
    for (;;) {
      const oldest = packager.periods[0]!;
      if (packager.periods.length < 2 || !expired(oldest, nowMs)) return;
      packager.periods.shift();
      void oldest.remux.stop();
      // Period 0's folder holds the others'.
      if (oldest.id !== 0) void rm(oldest.dir, { recursive: true, force: true });
    }
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

const expired = (period: Period, nowMs: number): boolean =>
  period.endedAtMs !== undefined && nowMs - period.endedAtMs > PERIOD_KEEP_MS;

const running = (period: Period): boolean =>
  period.remux.state === 'starting' || period.remux.state === 'running';

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
