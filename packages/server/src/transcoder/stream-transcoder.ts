import type { MediaInfo, Track, Transcoder } from '@sluice/api';
import {
  AUDIO_DEFAULTS,
  renditions,
  transcoderArgs,
  type Rendition,
} from '../engine/ffmpeg/transcoder-args.js';
import { Supervisor } from '../engine/ffmpeg/supervisor.js';
import { masterPlaylist } from '../media/hls-playlist.js';
import { PacketBus } from '../media/packet-bus.js';
import { segmentBitRates } from '../media/segment-bit-rates.js';
import type { SegmenterOptions } from '../media/hls-segmenter.js';
import { logoFileOf } from './logo-store.js';
import { TS_CLOCK, tsDiff } from '../media/ts-packet.js';
import { SpeedMeter } from './speed-meter.js';
import { variantUri } from './variant-path.js';

export interface TranscoderContext {
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
  /** The uploaded logos' folder ('@name' logo paths); undefined: no logos. */
  logoDir: string | undefined;
}

/** Below this speed, sustained over the meter's window, the transcoder can't hold real time. */
export const REAL_TIME_SPEED = 0.95;
/** The window speeds are measured over. */
const SPEED_WINDOW_MS = 10_000;
/** Input held for a transcoder that is behind; past it input is dropped rather than memory grown. */
const MAX_STDIN_BACKLOG_BYTES = 32 * 1024 * 1024;
/** How long to wait for the source's video size before starting without it. */
const TRACKS_WAIT_MS = 5000;

interface Variant {
  rendition: Rendition;
  bus: PacketBus;
}

/**
 * A stream's transcoder: one ffmpeg reading the source bus as MPEG-TS on stdin and writing the
 * renditions as MPEG-TS on stdout (engine/ffmpeg/transcoder-args.ts). The output feeds `bus` (all
 * tracks: /mpegts, video.m3u8, pushes, DASH, previews) and, split by program, one bus per video
 * track whose segmenter makes that variant's HLS media playlist.
 */
export class StreamTranscoder {
  readonly bus: PacketBus;
  readonly variants: Variant[];
  private supervisor: Supervisor | undefined;
  private readonly unsubscribe: () => void;
  private readonly meter = new SpeedMeter(SPEED_WINDOW_MS);
  private inputSamples: { wallMs: number; dts: number }[] = [];
  private readonly waitingSince = Date.now();
  private slow: number | undefined;
  private droppedBytes = 0;
  private stopped = false;

  constructor(
    private readonly config: Transcoder,
    private readonly source: PacketBus,
    private readonly segments: SegmenterOptions,
    private readonly context: TranscoderContext,
    private readonly note: (line: string) => void,
  ) {
    this.bus = new PacketBus(segments);
    this.variants = renditions(config).map((rendition) => {
      const bus = new PacketBus(segments);
      bus.selectProgram(rendition.program);
      return { rendition, bus };
    });
    this.unsubscribe = source.subscribe((chunk) => this.feed(chunk));
  }

  /** The ffmpeg is up (stats.running_transcoder). */
  get running(): boolean {
    return this.supervisor?.state === 'running';
  }

  /**
   * What is wrong, for the stream's source_error: the transcoder exiting, or not holding real
   * time (its speed over the last 10 s under REAL_TIME_SPEED).
   */
  get error(): string | undefined {
    if (this.slow !== undefined)
      return `transcoder can't hold real time: ${this.slow.toFixed(2)}x over the last 10 s`;
    const status = this.supervisor?.status();
    if (status && status.state !== 'running' && status.lastError) return `transcoder: ${status.lastError}`;
    return undefined;
  }

  /**
   * Called each second: notices a transcoder falling behind, or catching up again. Its speed is
   * taken relative to the input's: a source that stalls (its own error) slows the output too, and
   * that is no fault of the transcoder.
   */
  maintain(nowMs: number): void {
    if (!this.running) return;
    const speed = this.meter.speed(nowMs);
    const input = this.inputSpeed(nowMs);
    if (speed === undefined || input === undefined || input < 0.5) {
      this.slow = undefined;
      return;
    }
    const relative = speed / Math.min(1, input);
    if (relative < REAL_TIME_SPEED) {
      if (this.slow === undefined)
        this.note(`transcoder can't hold real time: ${relative.toFixed(2)}x over the last 10 s`);
      this.slow = relative;
    } else if (this.slow !== undefined) {
      this.slow = undefined;
      this.note(`transcoder holds real time again: ${relative.toFixed(2)}x`);
    }
  }

  /** Media seconds the source delivered per wall second, over the meter's window (its DTS each second). */
  private inputSpeed(nowMs: number): number | undefined {
    const dts = this.source.demux.lastDts;
    if (dts === undefined) return undefined;
    const samples = this.inputSamples;
    samples.push({ wallMs: nowMs, dts });
    while (samples.length > 2 && samples[1]!.wallMs <= nowMs - SPEED_WINDOW_MS) samples.shift();
    const first = samples[0]!;
    const span = nowMs - first.wallMs;
    if (span < SPEED_WINDOW_MS * 0.8) return undefined;
    const speed = tsDiff(dts, first.dts) / TS_CLOCK / (span / 1000);
    // A jump either way is a source switch or restart: start the window over.
    if (speed < 0 || speed > 3) {
      this.inputSamples = [samples[samples.length - 1]!];
      return undefined;
    }
    return speed;
  }

  /** The master playlist: a variant per video track, or undefined while none has a segment. */
  master(query: string): string | undefined {
    const ready = this.variants.filter((v) => v.bus.segmenter.playlist());
    if (ready.length === 0) return undefined;
    return masterPlaylist(
      ready.map(({ rendition, bus }) => {
        // Each rendition's own segments (delivery/playback.ts does the same for a single variant);
        // until one has a duration, what the rendition was configured to send.
        const rates = segmentBitRates(bus.segmenter.segments, this.segments.targetDurationMs);
        return {
          uri: `${variantUri(rendition.program)}${query}`,
          bandwidth: rates?.peakBps ?? configuredBitsPerSecond(rendition, this.config),
          averageBandwidth: rates?.averageBps,
          codecs: bus.demux.codecStrings(),
          resolution: bus.demux.resolution,
        };
      }),
    );
  }

  /** The bus of variant `n` (1-based, as in its URL). */
  variant(n: number): PacketBus | undefined {
    return this.variants.find((v) => v.rendition.program === n)?.bus;
  }

  /** Whether every variant (or, with no video tracks, the output) has a segment to list. */
  get ready(): boolean {
    if (this.variants.length === 0) return this.bus.segmenter.playlist() !== undefined;
    return this.variants.every((v) => v.bus.segmenter.playlist() !== undefined);
  }

  /** Resolves true once `ready`, false after `timeoutMs` or when stopped. */
  waitReady(timeoutMs: number): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => {
      const offs = [this.bus, ...this.variants.map((v) => v.bus)].map((bus) =>
        bus.segmenter.onSegment(() => {
          if (this.ready) done(true);
        }),
      );
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        for (const off of offs) off();
        resolve(ok && !this.stopped);
      };
    });
  }

  /** The output's tracks: each variant's video (v1, v2…), then the audio once. */
  mediaInfo(nowMs: number): MediaInfo | undefined {
    if (this.variants.length === 0)
      return this.bus.demux.primaryPid ? this.bus.demux.mediaInfo(nowMs) : undefined;
    const tracks: Track[] = [];
    let audio: Track | undefined;
    this.variants.forEach(({ bus }, i) => {
      for (const track of bus.demux.tracks(nowMs)) {
        if (track.content === 'video') tracks.push({ ...track, track_id: `v${i + 1}` });
        else audio ??= track;
      }
    });
    if (tracks.length === 0) return undefined;
    if (audio) tracks.push(audio);
    const first = tracks[0]!;
    return { width: first.width, height: first.height, tracks };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    const supervisor = this.supervisor;
    supervisor?.stdin?.end();
    await supervisor?.stop();
  }

  private feed(chunk: Buffer): void {
    const supervisor = this.supervisor ?? this.startWhenTracksKnown();
    if (!supervisor || supervisor.state !== 'running' || !supervisor.stdin) return;
    const stdin = supervisor.stdin as NodeJS.WritableStream & { writableLength: number };
    if (stdin.writableLength > MAX_STDIN_BACKLOG_BYTES) {
      if (this.droppedBytes === 0) this.note('transcoder input backlog over 32 MB: dropping input');
      this.droppedBytes += chunk.length;
      return;
    }
    this.droppedBytes = 0;
    stdin.write(chunk);
  }

  /** Starts ffmpeg once the source's tracks are known (hardware decoders and crop need them). */
  private startWhenTracksKnown(): Supervisor | undefined {
    if (this.stopped) return undefined;
    const demux = this.source.demux;
    if (demux.primaryPid === undefined) return undefined;
    const tracks = demux.tracks(Date.now());
    const video = tracks.find((t) => t.content === 'video');
    if (video && !video.width && Date.now() - this.waitingSince < TRACKS_WAIT_MS) return undefined;
    const args = transcoderArgs({
      config: this.config,
      keyframeSeconds: Math.max(1, Math.round(this.segments.targetDurationMs / 1000)),
      logoFile: (path) => logoFileOf(this.context.logoDir, path),
      video: video ? { codec: video.codec, width: video.width, height: video.height } : undefined,
      audio: tracks.some((t) => t.content === 'audio'),
    });
    let spawned = 0;
    const supervisor = new Supervisor({
      binary: this.context.ffmpegPath,
      args,
      env: this.context.env,
      withStdin: true,
      restartDelayMs: 1000,
      maxRestartDelayMs: 10_000,
      // A transcoder that takes input and writes nothing for this long is stuck.
      staleTimeoutMs: 30_000,
      logLines: 50,
      divertLine: (line) => this.meter.line(line),
      onStdout: (chunk) => {
        this.bus.write(chunk);
        for (const v of this.variants) v.bus.write(chunk);
      },
      onLine: (line) => this.note(`transcoder: ${line}`),
      onStateChange: (to) => {
        if (to !== 'running') return;
        this.meter.reset();
        this.inputSamples = [];
        this.slow = undefined;
        // A restarted ffmpeg starts a new timeline in every output.
        if (spawned++ > 0)
          for (const bus of [this.bus, ...this.variants.map((v) => v.bus)]) bus.discontinuity();
        // Each run starts with the tables and the open segment from its keyframe.
        const stdin = supervisor.stdin;
        if (stdin) for (const part of this.source.segmenter.liveStart()) stdin.write(part);
      },
    });
    this.supervisor = supervisor;
    this.note(`transcoder: starting ${this.variants.length} rendition(s)`);
    supervisor.start();
    return supervisor;
  }
}

/** What a variant promises: its video bitrate (when not copied) and the audio's. */
function configuredBitsPerSecond(rendition: Rendition, config: Transcoder): number {
  const video = rendition.track.bitrate === 'copy' ? 0 : rendition.track.bitrate;
  const audio = config.audio?.bitrate ?? AUDIO_DEFAULTS.bitrate;
  return video + (audio === 'copy' ? 0 : audio);
}
