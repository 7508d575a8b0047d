import type { StreamRuntime } from '../engine/stream-runtime.js';
import { LlPackager } from '../media/llhls/ll-packager.js';
import type { PacketBus } from '../media/packet-bus.js';
import { HeldRequests } from './llhls-holds.js';

/** One stream's LL-HLS while players ask for it: the packager and the requests held on it. */
export interface LlStream {
  packager: LlPackager;
  holds: HeldRequests;
  /** Marks a request: the packager runs while requests come. */
  touch(): void;
}

/** The packager stops this long after the last LL-HLS request (players poll every part: ~0.5 s). */
const IDLE_STOP_MS = 30_000;
const IDLE_CHECK_MS = 5_000;

/** One per bus: a restarted stream (a new bus) starts a new one; the old one stops with its bus. */
const streams = new WeakMap<PacketBus, LlStream>();

/**
 * The LL-HLS of a running stream, started on the first request: it takes the open TS segment from
 * its keyframe (so the first parts come at once, not after the next keyframe), then every packet
 * the bus lets through, and stops IDLE_STOP_MS after the last request (or when the bus is replaced).
 */
export function llStreamOf(runtime: StreamRuntime, bus: PacketBus): LlStream {
  const known = streams.get(bus);
  if (known) {
    known.touch();
    return known;
  }
  const packager = new LlPackager({
    segmentMs: runtime.spec.segmentDurationMs,
    windowSize: runtime.spec.segmentCount,
  });
  const holds = new HeldRequests();
  packager.onUpdate(() => holds.update());
  let failed = false;
  const feed = (chunk: Buffer) => {
    try {
      packager.push(chunk);
    } catch (error) {
      // A bus subscriber must not throw (the others would miss the chunk): note it once, go on.
      if (!failed) runtime.log.note(`ll-hls: ${(error as Error).message}`);
      failed = true;
    }
  };
  for (const part of bus.segmenter.liveStart()) feed(part);
  const unsubscribe = bus.subscribe(feed);
  let lastUsed = Date.now();
  const stream: LlStream = { packager, holds, touch: () => (lastUsed = Date.now()) };
  const idle = setInterval(() => {
    const replaced = runtime.bus !== bus;
    if (!replaced && (Date.now() - lastUsed < IDLE_STOP_MS || holds.size > 0)) return;
    clearInterval(idle);
    unsubscribe();
    holds.clear();
    streams.delete(bus);
  }, IDLE_CHECK_MS);
  idle.unref();
  streams.set(bus, stream);
  return stream;
}
