import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Probe, ProbeStream } from '../vod/ffprobe-tracks.js';
import { conformArgs, type TrackPlan } from './conform-args.js';
import { run } from './conform-run.js';

/** What the live stream carries: an ad is made to match it before it is inserted. */
export interface AdTarget {
  video?: { codec: 'h264' | 'hevc'; width: number; height: number; fps?: number };
  audio?: { codec: 'aac'; sampleRate: number; channels: number };
}

export interface ConformerOptions {
  ffmpegPath?: string;
  ffprobePath?: string;
  /** The ffmpeg children's environment (engine/ffmpeg/leftovers.ts childEnv: a dead run's are ended). */
  env?: NodeJS.ProcessEnv;
  /** Longest an ffmpeg run may take (ms): an ad is seconds to minutes long. */
  timeoutMs?: number;
}

/** Frame rates closer than this are the same rate (29.97 vs 30000/1001). */
const FPS_TOLERANCE = 0.01;
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** The stderr kept for an error message (bytes, the tail). */
const TEMP_PREFIX = '.tmp-';
/** A conformed copy not used for this long is deleted at the next start. */
export const CACHE_MAX_AGE_MS = 30 * 24 * 3600_000;

/**
 * Ad files made ready for insertion into a live stream, once and ahead of time: an MPEG-TS copy of
 * the file whose video (codec, size, rate) and audio (AAC, rate, channels) match the stream's, a
 * keyframe first. A track that already matches is copied (-c copy, fast); one that doesn't is
 * re-encoded; a missing audio track gets silence so the stream's track layout holds through the ad.
 * Cached in `cacheDir` under a hash of (path, mtime, size, target): a second call, or a restart, finds
 * the file; an edited file (new mtime or size) is conformed again. Written to a temp name then
 * renamed: a half-written file is never found. Concurrent calls for one key share one ffmpeg.
 */
export class AdConformer {
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly options: Required<Omit<ConformerOptions, 'env'>> & { env?: NodeJS.ProcessEnv };
  private ready: Promise<void> | undefined;
  /** ffmpeg runs started (for stats and tests: a cache hit starts none). */
  runs = 0;
  /** The ffprobe and ffmpeg children running now: close() ends them. */
  private readonly children = new Set<ChildProcess>();
  private closed = false;

  constructor(
    readonly cacheDir: string,
    options: ConformerOptions = {},
  ) {
    this.options = {
      ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
      ffprobePath: options.ffprobePath ?? 'ffprobe',
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      env: options.env,
    };
  }

  /** The path of an MPEG-TS file that matches `target`; rejects with a readable reason. */
  async conform(path: string, measured: AdTarget): Promise<string> {
    // A rate measured from timestamps wobbles (24.98, 25.01): one copy per real rate, not per reading.
    const target = snapFps(measured);
    if (this.closed) throw new Error(`ad file ${path} is not conformed: the server is stopping`);
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw new Error(`ad file ${path} can't be read: ${(error as NodeJS.ErrnoException).code ?? error}`, {
        cause: error,
      });
    }
    if (!info.isFile()) throw new Error(`ad file ${path} is not a file`);
    const key = createHash('sha256')
      .update(JSON.stringify([path, info.mtimeMs, info.size, normalTarget(target)]))
      .digest('hex')
      .slice(0, 32);
    const running = this.inflight.get(key);
    if (running) return running;
    const job = this.make(path, target, key).finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }

  private async make(path: string, target: AdTarget, key: string): Promise<string> {
    await (this.ready ??= this.prepareDir());
    const out = join(this.cacheDir, `${key}.ts`);
    try {
      if ((await stat(out)).size > 0) {
        // Used now: its age counts from here (prepareDir deletes copies unused for a long time).
        const now = new Date();
        await utimes(out, now, now).catch(() => undefined);
        return out;
      }
    } catch {
      // Not made yet.
    }
    const probe = await this.probe(path);
    const plan = planTracks(probe, target, path);
    const temp = join(this.cacheDir, `${TEMP_PREFIX}${key}-${randomBytes(4).toString('hex')}.ts`);
    try {
      await this.ffmpeg(conformArgs(path, temp, plan), path);
      if ((await stat(temp)).size === 0) throw new Error(`ad file ${path} conformed to an empty file`);
      await rename(temp, out);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    return out;
  }

  /**
   * The cache folder, made, with the temp files of an interrupted earlier run removed (every call
   * waits for this before it starts an ffmpeg, so none of this run's is there yet), and copies
   * unused for CACHE_MAX_AGE_MS (an edited ad's old copy, a schedule's removed file) deleted.
   */
  private async prepareDir(): Promise<void> {
    await mkdir(this.cacheDir, { recursive: true, mode: 0o700 });
    const oldest = Date.now() - CACHE_MAX_AGE_MS;
    for (const name of await readdir(this.cacheDir)) {
      const path = join(this.cacheDir, name);
      if (name.startsWith(TEMP_PREFIX)) await unlink(path).catch(() => undefined);
      else if (name.endsWith('.ts')) {
        const info = await stat(path).catch(() => undefined);
        if (info && info.mtimeMs < oldest) await unlink(path).catch(() => undefined);
      }
    }
  }

  /** Ends the running ffprobe/ffmpeg children (their calls reject) and refuses new calls. */
  close(): void {
    this.closed = true;
    for (const child of this.children) child.kill('SIGKILL');
  }

  private childOptions() {
    return { env: this.options.env, timeoutMs: this.options.timeoutMs, children: this.children };
  }

  private async probe(path: string): Promise<Probe> {
    const args = ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path];
    const { code, stdout, stderr } = await run(this.options.ffprobePath, args, this.childOptions());
    if (this.closed) throw new Error(`ad file ${path} is not conformed: the server is stopping`);
    if (code !== 0) throw new Error(`ad file ${path} is not a media file ffprobe can read: ${tail(stderr)}`);
    try {
      return JSON.parse(stdout) as Probe;
    } catch {
      throw new Error(`ad file ${path}: ffprobe's answer can't be read`);
    }
  }

  private async ffmpeg(args: string[], path: string): Promise<void> {
    if (this.closed) throw new Error(`ad file ${path} is not conformed: the server is stopping`);
    this.runs++;
    const { code, stderr } = await run(this.options.ffmpegPath, args, this.childOptions());
    if (this.closed) throw new Error(`ad file ${path} is not conformed: the server is stopping`);
    if (code !== 0)
      throw new Error(`ad file ${path} can't be conformed (ffmpeg exit ${code}): ${tail(stderr)}`);
  }
}

/** What to do with each track of `probe` to match `target`. */
export function planTracks(probe: Probe, target: AdTarget, path: string): TrackPlan {
  const streams = probe.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !isCoverArt(s));
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (target.video && !video) throw new Error(`ad file ${path} has no video track`);
  if (!target.video && !target.audio)
    throw new Error(`ad file ${path}: the stream has neither video nor audio`);
  return {
    video:
      target.video && video
        ? { index: video.index, copy: videoMatches(video, target.video), target: target.video }
        : undefined,
    audio: target.audio
      ? { index: audio?.index, copy: audio ? audioMatches(audio, target.audio) : false, target: target.audio }
      : undefined,
  };
}

/** A picture attached to an MP4 (cover art) is a 'video' stream of one frame: never the ad's video. */
function isCoverArt(s: ProbeStream): boolean {
  return (s as { disposition?: { attached_pic?: number } }).disposition?.attached_pic === 1;
}

/**
 * Copied only when a player decoding the live stream decodes the ad too: same codec and size, 8-bit
 * 4:2:0 (a 10-bit or 4:4:4 ad in an 8-bit channel breaks decoders mid-stream), same rate.
 */
function videoMatches(s: ProbeStream, t: NonNullable<AdTarget['video']>): boolean {
  if (s.codec_name !== t.codec || s.width !== t.width || s.height !== t.height) return false;
  const pixFmt = (s as { pix_fmt?: string }).pix_fmt;
  if (pixFmt !== 'yuv420p' && pixFmt !== 'yuvj420p') return false;
  if (t.fps === undefined) return true;
  const fps = rate(s.avg_frame_rate) ?? rate(s.r_frame_rate);
  return fps !== undefined && Math.abs(fps - t.fps) < FPS_TOLERANCE * t.fps;
}

/** AAC-LC only: HE-AAC's SBR doubles the rate a decoder set up for the live stream expects. */
function audioMatches(s: ProbeStream, t: NonNullable<AdTarget['audio']>): boolean {
  if (s.profile !== undefined && s.profile !== 'LC') return false;
  return s.codec_name === t.codec && Number(s.sample_rate) === t.sampleRate && s.channels === t.channels;
}

function rate(text: string | undefined): number | undefined {
  const [n = NaN, d] = (text ?? '').split('/').map(Number);
  const value = d ? n / d : n;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Frame rates broadcast uses; a measured rate within 1 % of one is that one. */
const STANDARD_FPS = [24000 / 1001, 24, 25, 30000 / 1001, 30, 48, 50, 60000 / 1001, 60];

/** `t` with its video rate snapped to a standard one (else to a whole number). */
export function snapFps(t: AdTarget): AdTarget {
  const fps = t.video?.fps;
  if (!t.video || fps === undefined || !(fps > 0)) return t;
  // The nearest: 30 is within 1 % of 29.97 too.
  const nearest = STANDARD_FPS.reduce((a, b) => (Math.abs(b - fps) < Math.abs(a - fps) ? b : a));
  const standard = Math.abs(nearest - fps) < FPS_TOLERANCE * nearest ? nearest : undefined;
  return { ...t, video: { ...t.video, fps: standard ?? Math.max(1, Math.round(fps)) } };
}

function normalTarget(t: AdTarget): unknown {
  return [
    t.video ? [t.video.codec, t.video.width, t.video.height, t.video.fps ?? null] : null,
    t.audio ? [t.audio.codec, t.audio.sampleRate, t.audio.channels] : null,
  ];
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ').slice(-500);
}
