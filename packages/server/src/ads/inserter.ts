import { execFile } from 'node:child_process';
import type { AdSchedule, Config, MediaInfo, StreamStats } from '@sluice/api';
import type { Engine } from '../engine/engine.js';
import type { StreamRuntime } from '../engine/stream-runtime.js';
import type { PacketBus } from '../media/packet-bus.js';
import { resolveAdFile } from './ad-files.js';
import type { AdStats } from './ad-stats.js';
import type { AdConformer, AdTarget } from './conform.js';
import { AD_PREROLL_MS, AdBreak, type BreakFile } from './inserter-break.js';
import { AdMarks } from './inserter-marks.js';
import { pickByWeight } from './inserter-pick.js';
import type { Scte35Streams } from './scte35-streams.js';
import { currentOrNextSlot } from './slot-clock.js';

export interface InserterDeps {
  engine: Engine;
  stats: AdStats;
  conformer: AdConformer;
  ffprobePath?: string;
  checkEveryMs?: number;
  /** The breaks SCTE-35 cues of a stream's source ask for (ads/scte35-streams.ts). */
  cues?: Pick<Scte35Streams, 'slot'>;
}

/** A slot's span on the wall clock (epoch ms). */
type Due = { startMs: number; endMs: number };

/** One stream with a schedule: its marks (per bus), its break, its ads made ready. */
interface Inserted {
  schedule: AdSchedule;
  bus: PacketBus | undefined;
  marks: AdMarks;
  offSegment: (() => void) | undefined;
  adBreak: AdBreak | undefined;
  /** The slot start (ms) the last break was for: one break per slot. */
  lastSlotMs: number;
  ready: Map<string, Promise<BreakFile | string>>;
  targetKey: string;
  /** Why files of the schedule can't play (missing, not conformable): the stream's `ad_error` stat. */
  adError: string | undefined;
}

/**
 * Ad insertion (issue 25): every stream whose `ad_schedule` names a schedule gets, at each slot,
 * its ads in place of the live source (inserter-break.ts), chosen by weight. The files are
 * conformed to the stream's codecs and size as soon as its media info is known (once, cached by
 * the conformer), never at the slot. Counts shows (each ad put on air) and views (sessions that
 * fetch an ad segment), and marks the HLS playlist (inserter-marks.ts).
 */
export class AdInserter {
  private readonly streams = new Map<string, Inserted>();
  private config: Config | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly deps: InserterDeps) {
    this.timer = setInterval(() => this.tick(), deps.checkEveryMs ?? 250);
  }

  /**
   * `changedStreams`: the only streams an edit can have changed (undefined: any of them, e.g. the
   * schedules changed). Walking 20,000 streams on every edit cost more than writing the config.
   */
  apply(config: Config, changedStreams?: readonly string[]): void {
    this.config = config;
    const schedules = new Map((config.ad_schedules ?? []).map((s) => [s.name, s]));
    const streams = config.streams ?? {};
    const looked = changedStreams ? new Set(changedStreams) : undefined;
    const wanted = new Set<string>();
    for (const name of looked ?? Object.keys(streams)) {
      const stream = streams[name];
      if (!stream) continue;
      const schedule = stream.ad_schedule === undefined ? undefined : schedules.get(stream.ad_schedule);
      if (!schedule) continue;
      wanted.add(name);
      const known = this.streams.get(name);
      if (known && JSON.stringify(known.schedule) === JSON.stringify(schedule)) continue;
      known?.adBreak?.cancel();
      known?.offSegment?.();
      this.streams.set(name, {
        schedule,
        bus: undefined,
        marks: new AdMarks(),
        offSegment: undefined,
        adBreak: undefined,
        lastSlotMs: 0,
        ready: new Map(),
        targetKey: '',
        adError: undefined,
      });
    }
    for (const [name, entry] of this.streams) {
      if (wanted.has(name) || (looked && !looked.has(name))) continue;
      entry.adBreak?.cancel();
      entry.offSegment?.();
      this.streams.delete(name);
    }
  }

  /** The live playlist of a stream with its ad marks (only streams with a schedule change). */
  playlist(name: string, text: string): string {
    return this.streams.get(name)?.marks.decorate(text) ?? text;
  }

  /** The stream's ad figures beside its own (engine moreStats): why files of its schedule are skipped. */
  stats(name: string): Partial<StreamStats> | undefined {
    const error = this.streams.get(name)?.adError;
    return error === undefined ? undefined : { ad_error: error };
  }

  /** A session fetched a segment: an ad segment counts a view of its file. */
  segmentFetched(name: string, sequence: number, sessionKey: string): void {
    const entry = this.streams.get(name);
    const file = entry?.marks.adOf(sequence);
    if (file !== undefined) this.deps.stats.recordView(name, file, sessionKey);
  }

  close(): void {
    clearInterval(this.timer);
    for (const entry of this.streams.values()) {
      entry.adBreak?.cancel();
      entry.offSegment?.();
    }
    this.streams.clear();
  }

  private tick(): void {
    const now = Date.now();
    for (const [name, entry] of this.streams) {
      const runtime = this.deps.engine.get(name);
      this.follow(entry, runtime);
      if (!runtime?.bus || runtime.transcoder) continue;
      this.prepare(name, entry, runtime);
      if (entry.adBreak && !entry.adBreak.finished) continue;
      const slot = this.dueSlot(name, entry, now);
      if (!slot) continue;
      entry.lastSlotMs = slot.startMs;
      // A slot found already under way (a restart, a late schedule) still plays what is left of it.
      void this.startBreak(name, entry, runtime, Math.max(slot.startMs, now), slot.endMs, slot.startMs);
    }
  }

  /**
   * The slot to start now (due within AD_PREROLL_MS, not started yet): the schedule's, else the one
   * an SCTE-35 cue of the source asked for (a schedule's next slot may be hours away).
   */
  private dueSlot(name: string, entry: Inserted, now: number): Due | undefined {
    const due = (slot: Due | undefined) =>
      slot && slot.startMs !== entry.lastSlotMs && now >= slot.startMs - AD_PREROLL_MS ? slot : undefined;
    return due(currentOrNextSlot(entry.schedule.slots, now)) ?? due(this.deps.cues?.slot(name, now));
  }

  /** Marks follow the stream's current bus (a restarted stream has a new one). */
  private follow(entry: Inserted, runtime: StreamRuntime | undefined): void {
    const bus = runtime?.transcoder ? undefined : runtime?.bus;
    if (bus === entry.bus) return;
    entry.offSegment?.();
    entry.bus = bus;
    entry.offSegment = bus?.segmenter.onSegment((segment) => entry.marks.onSegment(segment, Date.now()));
    if (!bus) {
      entry.adBreak?.cancel();
      entry.adBreak = undefined;
    }
  }

  /** Starts conforming the schedule's files to the stream's media as soon as it is known. */
  private prepare(name: string, entry: Inserted, runtime: StreamRuntime): void {
    const target = targetOf(runtime.bus!.demux.mediaInfo(Date.now()));
    if (!target) return;
    // The frame rate is measured from timestamps and wavers: a new size or codec conforms again, a
    // rate that moves by a fraction does not (the first one measured is kept).
    const key = JSON.stringify({ ...target, video: target.video && { ...target.video, fps: undefined } });
    if (key === entry.targetKey) return;
    entry.targetKey = key;
    entry.ready = new Map();
    for (const file of entry.schedule.files)
      entry.ready.set(file.name, this.ready(name, file.name, target, runtime));
    const ready = entry.ready;
    void Promise.all(ready.values()).then((files) => {
      if (entry.ready === ready) entry.adError = problems(files);
    });
  }

  private async ready(
    stream: string,
    name: string,
    target: AdTarget,
    runtime: StreamRuntime,
  ): Promise<BreakFile | string> {
    const found = this.config ? resolveAdFile(this.config, name) : { error: 'no config' };
    if ('error' in found) {
      runtime.note(`ad file ${name} is missing: ${found.error}`);
      return found.error;
    }
    try {
      const path = await this.deps.conformer.conform(found.path, target);
      return { name, path, durationMs: await durationMs(path, this.deps.ffprobePath ?? 'ffprobe') };
    } catch (error) {
      const message = `ad file ${name} can't be made to match ${stream}: ${(error as Error).message}`;
      runtime.note(message);
      return message;
    }
  }

  private async startBreak(
    name: string,
    entry: Inserted,
    runtime: StreamRuntime,
    startMs: number,
    endMs: number,
    slotMs: number,
  ): Promise<void> {
    const settled = await Promise.all(
      entry.schedule.files.map(async (f) => {
        // Checked again at each slot: a file deleted since it was conformed is missing now.
        const found = this.config ? resolveAdFile(this.config, f.name) : { error: 'no config' };
        if ('error' in found)
          return { weight: f.weight, file: `ad file ${f.name} is missing: ${found.error}` };
        return { weight: f.weight, file: await entry.ready.get(f.name) };
      }),
    );
    const playable = settled.filter(
      (s): s is { weight: number; file: BreakFile } => typeof s.file === 'object',
    );
    for (const s of settled)
      if (typeof s.file === 'string') runtime.note(`ad slot: skipping a file (${s.file})`);
    entry.adError = problems(settled.map((s) => s.file));
    if (playable.length === 0 || Date.now() >= endMs || runtime.bus !== entry.bus) {
      runtime.note('ad slot: no ad file ready: the stream stays live');
      return;
    }
    // One file per slot, looped by its file source to fill it: a second file would restart the
    // same PIDs at the same timestamps, and the segmenter drops audio it takes for a repeat.
    const files = pickByWeight(playable, endMs - startMs).slice(0, 1);
    const id = `ad-${slotMs}`;
    const plannedS = Math.round((endMs - slotMs) / 1000);
    entry.adBreak = new AdBreak(runtime, files, startMs, endMs, {
      adStarted: (file, atMs) => {
        this.deps.stats.recordShow(name, file.name);
        entry.marks.adStarted(file.name, { id, startDateMs: atMs, plannedS });
      },
      liveResumed: (atMs) => entry.marks.liveResumed(atMs),
    });
    entry.adBreak.begin();
  }
}

/** The reasons files can't play, one line; undefined when every file can. */
function problems(files: readonly (BreakFile | string | undefined)[]): string | undefined {
  const reasons = files.filter((f): f is string => typeof f === 'string');
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

/** The live stream's codecs and size, as the conformer takes them; undefined before they are known. */
export function targetOf(info: MediaInfo): AdTarget | undefined {
  const video = info.tracks.find((t) => t.content === 'video');
  const audio = info.tracks.find((t) => t.content === 'audio');
  const target: AdTarget = {};
  if (video) {
    if ((video.codec !== 'h264' && video.codec !== 'hevc') || !video.width || !video.height) return undefined;
    target.video = { codec: video.codec, width: video.width, height: video.height };
    if (video.fps) target.video.fps = Math.round(video.fps * 100) / 100;
  }
  if (audio) {
    if (audio.codec !== 'aac' || !audio.sample_rate || !audio.channels) return undefined;
    target.audio = { codec: 'aac', sampleRate: audio.sample_rate, channels: audio.channels };
  }
  return target.video || target.audio ? target : undefined;
}

function durationMs(path: string, ffprobe: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      ffprobe,
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path],
      { timeout: 30_000 },
      (error, stdout) => {
        const seconds = Number(stdout.trim());
        if (error || !(seconds > 0)) reject(new Error(error?.message ?? `no duration in ${path}`));
        else resolve(Math.round(seconds * 1000));
      },
    );
  });
}
