/**
 * How fast a transcoder runs against real time, read from ffmpeg's `-progress` lines. ffmpeg's
 * own `speed=` is averaged since the start, so a slow probe at start would drag it for minutes;
 * this takes the media time produced (out_time_us) over the wall time of a sliding window, which
 * for a live input is exactly whether the transcoder keeps up.
 */
export class SpeedMeter {
  private samples: { wallMs: number; outUs: number }[] = [];
  private outUs: number | undefined;

  constructor(
    /** The window the speed is measured over. */
    private readonly windowMs = 10_000,
  ) {}

  /** Takes one stderr line; true when it was a progress line. */
  line(line: string, nowMs = Date.now()): boolean {
    if (!isProgressLine(line)) return false;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1).trim();
    if (key === 'out_time_us') {
      const us = Number(value);
      this.outUs = Number.isFinite(us) && us >= 0 ? us : undefined;
    } else if (key === 'progress' && this.outUs !== undefined) {
      this.samples.push({ wallMs: nowMs, outUs: this.outUs });
      // Keep one sample older than the window, so the window is always fully covered.
      while (this.samples.length > 2 && this.samples[1]!.wallMs <= nowMs - this.windowMs)
        this.samples.shift();
    }
    return true;
  }

  /** Media seconds made per wall second over the window; undefined until a whole window is seen. */
  speed(nowMs = Date.now()): number | undefined {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.wallMs - first.wallMs < this.windowMs * 0.8) return undefined;
    // A progress report that stopped coming (the child hangs) counts as no media made since.
    const wallMs = Math.max(last.wallMs, nowMs - 2000) - first.wallMs;
    return (last.outUs - first.outUs) / 1000 / wallMs;
  }

  reset(): void {
    this.samples = [];
    this.outUs = undefined;
  }
}

/** The keys ffmpeg 5.1 writes with -progress (one per line, a block ending with progress=). */
const PROGRESS_KEYS = new Set([
  'frame',
  'fps',
  'bitrate',
  'total_size',
  'out_time_us',
  'out_time_ms',
  'out_time',
  'dup_frames',
  'drop_frames',
  'speed',
  'progress',
]);

/** Also `stream_0_0_q=…`, one per encoded stream. */
export const isProgressLine = (line: string): boolean =>
  /^stream_\d+_\d+_q=/.test(line) || PROGRESS_KEYS.has(line.slice(0, Math.max(0, line.indexOf('='))));
