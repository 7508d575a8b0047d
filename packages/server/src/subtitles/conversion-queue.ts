/**
 * The WebVTT conversions (one ffmpeg each) a network client can start, bounded: at most
 * PER_STREAM at once per stream and GLOBAL over the server; the rest wait in line. A client
 * asking for every .vtt segment at once gets a process count that stays put, not one per request.
 */
export const PER_STREAM_CONVERSIONS = 2;
export const GLOBAL_CONVERSIONS = 4;
/** Longer than this in line and the request answers 503 (Retry-After) instead of holding on. */
export const QUEUE_WAIT_MS = 10_000;

export class QueueTimeout extends Error {}

interface Job {
  stream: string;
  run: () => Promise<unknown>;
  /** Set when it leaves the line for a slot: from then on every waiter waits to the end. */
  started: boolean;
  /** Requests still waiting for it; at 0 while queued it leaves the line without running. */
  waiters: number;
}

export class ConversionQueue {
  private readonly queued: Job[] = [];
  private running = 0;
  private readonly runningPerStream = new Map<string, number>();

  constructor(
    private readonly perStream = PER_STREAM_CONVERSIONS,
    private readonly global = GLOBAL_CONVERSIONS,
  ) {}

  /** Conversions running now (what the caps bound). */
  get active(): number {
    return this.running;
  }

  /**
   * A conversion for `stream` that runs when a slot is free. The handle lets each request wait
   * with its own deadline; the conversion itself runs once for all of them.
   */
  add<T>(stream: string, run: () => Promise<T>): SharedConversion<T> {
    let resolveResult!: (value: T) => void;
    let rejectResult!: (error: unknown) => void;
    const result = new Promise<T>((resolve, reject) => {
      resolveResult = resolve;
      rejectResult = reject;
    });
    result.catch(() => undefined);
    const job: Job = {
      stream,
      waiters: 0,
      started: false,
      run: () => run().then(resolveResult, rejectResult),
    };
    this.queued.push(job);
    const shared = new SharedConversion<T>(job, result, () => this.dropIfQueued(job));
    queueMicrotask(() => this.pump());
    return shared;
  }

  private dropIfQueued(job: Job): boolean {
    const i = this.queued.indexOf(job);
    if (i < 0) return false;
    this.queued.splice(i, 1);
    return true;
  }

  private pump(): void {
    for (let i = 0; i < this.queued.length && this.running < this.global;) {
      const job = this.queued[i]!;
      const streamRunning = this.runningPerStream.get(job.stream) ?? 0;
      if (streamRunning >= this.perStream) {
        i++;
        continue;
      }
      this.queued.splice(i, 1);
      this.running++;
      this.runningPerStream.set(job.stream, streamRunning + 1);
      job.started = true;
      void job.run().finally(() => {
        this.running--;
        const left = (this.runningPerStream.get(job.stream) ?? 1) - 1;
        if (left > 0) this.runningPerStream.set(job.stream, left);
        else this.runningPerStream.delete(job.stream);
        this.pump();
      });
    }
  }
}

export class SharedConversion<T> {
  private dropped = false;

  constructor(
    private readonly job: Job,
    private readonly result: Promise<T>,
    private readonly drop: () => boolean,
  ) {}

  /** True once no request waits any more and it left the line unrun: the next request makes a new one. */
  get abandoned(): boolean {
    return this.dropped;
  }

  /**
   * The result for one request. Rejects with QueueTimeout when the conversion is still in line
   * after `waitMs` or `gone` fires (the client left); once running it is waited for to the end.
   */
  wait(waitMs: number, gone: (cancel: () => void) => void): Promise<T> {
    this.job.waiters++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const giveUp = () => {
        if (settled || this.job.started) return;
        settled = true;
        clearTimeout(timer);
        if (--this.job.waiters === 0) this.dropped = this.drop() || this.dropped;
        reject(new QueueTimeout(`still waiting for a conversion slot after ${waitMs} ms`));
      };
      const timer = setTimeout(giveUp, waitMs);
      gone(giveUp);
      this.result.then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          this.job.waiters--;
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          this.job.waiters--;
          reject(error);
        },
      );
    });
  }
}
