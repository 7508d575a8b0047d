import { type LiveSeries, PulseStore } from './pulse-store.js';

/** Minutes of history the traffic chart and the History graph get: one day. */
const MINUTES = 24 * 60;

export interface TrafficPoint {
  minute: number;
  inKbit: number;
  outKbit: number;
}

type Listener = (point: TrafficPoint) => void;

/** A stream's three series in the store they were taken from (a new pulsedb is a new store). */
interface Handles {
  store: PulseStore;
  input: LiveSeries | undefined;
  output: LiveSeries | undefined;
  clients: LiveSeries | undefined;
}

/**
 * Each stream's traffic and clients as the Pulse store keeps them (media_input, media_output,
 * media_clients {name}), and the per-minute view of them the stream traffic chart and the History
 * graph read (spec 001 §2, §9 "minute resolution"): a minute is the mean of its seconds, announced
 * when it closes.
 */
export class TrafficHistory {
  /** Streams being sampled, with the time of their last sample (their "now" for `points`). */
  private readonly lastMs = new Map<string, number>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly handles = new Map<string, Handles>();

  constructor(private readonly store: () => PulseStore = inMemory()) {}

  /** A one-second sample of a stream's kbit/s in and out and its clients. */
  sample(name: string, inKbit: number, outKbit: number, nowMs: number, clients = 0): void {
    const tags = { name };
    const store = this.store();
    // A stream that has carried nothing yet gets no series (20,000 idle on-demand streams would
    // otherwise each hold blocks of zeros).
    if (
      !this.lastMs.has(name) &&
      inKbit === 0 &&
      outKbit === 0 &&
      clients === 0 &&
      !store.find('media_input', tags)
    )
      return;
    this.lastMs.set(name, nowMs);
    // Handles kept per stream: no series key built and looked up for each of 3,000 values a second.
    let h = this.handles.get(name);
    if (!h || h.store !== store) {
      h = {
        store,
        input: store.handle('media_input', tags, nowMs),
        output: store.handle('media_output', tags, nowMs),
        clients: store.handle('media_clients', tags, nowMs),
      };
      this.handles.set(name, h);
    }
    const closedIn = h.input && store.recordTo(h.input, inKbit, nowMs);
    const closedOut = h.output && store.recordTo(h.output, outKbit, nowMs);
    if (h.clients) store.recordTo(h.clients, clients, nowMs);
    // A handle the store let go (idle for an hour), or did not give (full), is asked for again.
    if (stale(h.input) || stale(h.output) || stale(h.clients)) this.handles.delete(name);
    const closed = closedIn ?? closedOut;
    if (!closed) return;
    const point = {
      minute: closed[0],
      inKbit: Math.round(closedIn?.[1] ?? 0),
      outKbit: Math.round(closedOut?.[1] ?? 0),
    };
    for (const listener of this.listeners.get(name) ?? []) listener(point);
  }

  /** Streams no longer sampled leave memory (their history stays in the store). */
  retain(names: ReadonlySet<string>): void {
    for (const name of this.lastMs.keys()) if (!names.has(name)) this.forget(name);
  }

  /** A stream that is gone (a published one whose publisher left, a deleted one) leaves memory. */
  forget(name: string): void {
    if (!this.lastMs.delete(name)) return;
    this.handles.delete(name);
    const store = this.store();
    for (const metric of ['media_input', 'media_output', 'media_clients']) store.release(metric, { name });
  }

  /** Whether the stream's series are held in memory now. */
  sampling(name: string): boolean {
    return this.lastMs.has(name);
  }

  /** The closed minutes of the last day, oldest first. */
  points(name: string): TrafficPoint[] {
    const store = this.store();
    const input = store.find('media_input', { name });
    if (!input) return [];
    const output = store.find('media_output', { name });
    const now = this.lastMs.get(name) ?? Date.now();
    const current = Math.floor(now / 60_000) * 60_000;
    const from = current - MINUTES * 60_000;
    const outs = new Map(output ? store.points(output, 1, from, current - 1) : []);
    return store.points(input, 1, from, current - 1).map(([minute, inKbit]) => ({
      minute,
      inKbit: Math.round(inKbit),
      outKbit: Math.round(outs.get(minute) ?? 0),
    }));
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
}

const stale = (s: LiveSeries | undefined): boolean => !s || s.gone;

function inMemory(): () => PulseStore {
  const store = new PulseStore();
  return () => store;
}
