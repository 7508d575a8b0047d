/** Minutes of history kept per stream: one day. */
const MINUTES = 24 * 60;

interface Series {
  /** Minute start (ms) of each slot, 0 when empty. */
  minutes: Float64Array;
  inKbit: Float64Array;
  outKbit: Float64Array;
  /** The minute being summed, with its sums and sample count. */
  current: number;
  sumIn: number;
  sumOut: number;
  samples: number;
}

export interface TrafficPoint {
  minute: number;
  inKbit: number;
  outKbit: number;
}

type Listener = (point: TrafficPoint) => void;

/**
 * Per-minute traffic of each stream (spec 001 §2 traffic chart, §9 "minute resolution"): samples
 * taken each second are averaged into one point a minute, a day of them kept in a ring.
 */
export class TrafficHistory {
  private readonly series = new Map<string, Series>();
  private readonly listeners = new Map<string, Set<Listener>>();

  /** A one-second sample of a stream's kbit/s in and out. */
  sample(name: string, inKbit: number, outKbit: number, nowMs: number): void {
    const minute = Math.floor(nowMs / 60_000) * 60_000;
    let s = this.series.get(name);
    // A stream that has carried nothing yet gets no history (20,000 idle on-demand streams would
    // otherwise hold a day of zeros each).
    if (!s && inKbit === 0 && outKbit === 0) return;
    if (!s) {
      s = {
        minutes: new Float64Array(MINUTES),
        inKbit: new Float64Array(MINUTES),
        outKbit: new Float64Array(MINUTES),
        current: minute,
        sumIn: 0,
        sumOut: 0,
        samples: 0,
      };
      this.series.set(name, s);
    }
    if (minute !== s.current) this.close(name, s, minute);
    s.sumIn += inKbit;
    s.sumOut += outKbit;
    s.samples++;
  }

  /** Forgets streams no longer sampled. */
  retain(names: ReadonlySet<string>): void {
    for (const name of this.series.keys()) if (!names.has(name)) this.series.delete(name);
  }

  /** Forgets a stream that is gone (a published one whose publisher left, a deleted one). */
  forget(name: string): void {
    this.series.delete(name);
  }

  /** The closed minutes, oldest first. */
  points(name: string): TrafficPoint[] {
    const s = this.series.get(name);
    if (!s) return [];
    const out: TrafficPoint[] = [];
    for (let i = 0; i < MINUTES; i++) {
      // The current minute's slot still holds the oldest closed minute: start there.
      const slot = (Math.floor(s.current / 60_000) + i) % MINUTES;
      if (s.minutes[slot]! > 0)
        out.push({ minute: s.minutes[slot]!, inKbit: s.inKbit[slot]!, outKbit: s.outKbit[slot]! });
    }
    return out;
  }

  /** Calls `listener` with each minute of `name` as it closes. */
  onPoint(name: string, listener: Listener): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(name);
    };
  }

  private close(name: string, s: Series, next: number): void {
    if (s.samples > 0) {
      const slot = Math.floor(s.current / 60_000) % MINUTES;
      const point = {
        minute: s.current,
        inKbit: Math.round(s.sumIn / s.samples),
        outKbit: Math.round(s.sumOut / s.samples),
      };
      s.minutes[slot] = point.minute;
      s.inKbit[slot] = point.inKbit;
      s.outKbit[slot] = point.outKbit;
      for (const listener of this.listeners.get(name) ?? []) listener(point);
    }
    s.current = next;
    s.sumIn = 0;
    s.sumOut = 0;
    s.samples = 0;
  }
}
