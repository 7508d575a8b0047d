import type { StreamRuntime } from '../engine/stream-runtime.js';
import { LlPackager } from '../media/llhls/ll-packager.js';
import type { PacketBus } from '../media/packet-bus.js';
import { firstPtsS } from './dash-ingest-clock.js';
import { HeldRequests } from './llhls-holds.js';

/** One stream's LL-HLS while players ask for it: the packager and the requests held on it. */
export interface LlStream {
  packager: LlPackager;
  holds: HeldRequests;
  /** Marks a request: the packager runs while requests come. */
  touch(): void;
}

/** Whole TS segments handed to a new packager before the open one. */
const BACKLOG_SEGMENTS = 2;

/**
 * What a new packager starts from: the newest whole TS segments and the open one, so its first
 * playlist lists whole segments at once (a player that does not read parts, ffmpeg's, needs them).
 * Only segments that join end to end: not across a source switch, nor across a segment the
 * segmenter cut but has not published yet (it waits for its late audio), which would leave a hole.
 */
function backlogOf(bus: PacketBus): Buffer[] {
  const open = bus.segmenter.liveStart();
  let nextS = firstPtsS(open);
  if (nextS === undefined) return open;
  const whole: Buffer[] = [];
  for (const segment of bus.segmenter.segments.slice(-BACKLOG_SEGMENTS).reverse()) {
    const startS = firstPtsS([segment.data]);
    if (startS === undefined || Math.abs(nextS - startS - segment.durationMs / 1000) > 0.1) break;
    whole.unshift(segment.data);
    if (segment.discontinuity) break;
    nextS = startS;
  }
  return [...whole, ...open];
}

/** The packager stops this long after the last LL-HLS request (players poll every part: ~0.5 s). */
const IDLE_STOP_MS = 30_000;
const IDLE_CHECK_MS = 5_000;

/** One per bus: a restarted stream (a new bus) starts a new one; the old one stops with its bus. */
const streams = new WeakMap<PacketBus, LlStream>();

/**
 * The LL-HLS of a running stream, started on the first request: it takes the newest TS segments and
 * the open one (so the first parts come at once, not after the next keyframe), then every packet
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
  for (const part of backlogOf(bus)) feed(part);
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
