/**
 * Where DASH's wall clock comes from: the moment each access unit reached the server, against its
 * timestamp. A player's latency is "now minus when the presented media was live"; for a server
 * that is when the media was ingested, so that is what availabilityStartTime must encode.
 */

const PACKET_SIZE = 188;
const TICKS_PER_MS = 90;
/** Arrivals the offset is the smallest of: later ones are late (jitter, a busy event loop). */
const WINDOW_MS = 10_000;

export interface PesTimestamp {
  /** PES stream_id: 0xE0–0xEF video, 0xC0–0xDF MPEG audio (AAC included), 0xBD private (AC-3). */
  streamId: number;
  /** PTS and DTS (DTS = PTS when the PES has none), 90 kHz. */
  pts: number;
  dts: number;
}

const isVideo = (streamId: number): boolean => streamId >= 0xe0 && streamId <= 0xef;

/** A 33-bit PES timestamp (H.222 §2.4.3.7); above 2^31, so no bitwise arithmetic on it. */
function timestamp(b: Buffer, o: number): number {
  return (
    ((b[o]! >> 1) & 0x07) * 2 ** 30 + ((b.readUInt16BE(o + 1) >> 1) << 15) + (b.readUInt16BE(o + 3) >> 1)
  );
}

/** The timestamps of the PES packets that start in aligned TS packets, in order. */
export function pesTimestamps(chunk: Buffer): PesTimestamp[] {
  const found: PesTimestamp[] = [];
  for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) {
    if (chunk[o] !== 0x47 || !(chunk[o + 1]! & 0x40)) continue;
    const control = (chunk[o + 3]! >> 4) & 0x03;
    if (!(control & 0x01)) continue;
    const p = control === 0x03 ? o + 5 + chunk[o + 4]! : o + 4;
    if (p + 14 > o + PACKET_SIZE) continue;
    if (chunk[p] !== 0 || chunk[p + 1] !== 0 || chunk[p + 2] !== 1) continue;
    const flags = chunk[p + 7]! >> 6;
    if (!(flags & 0x02)) continue;
    const pts = timestamp(chunk, p + 9);
    const dts = flags === 0x03 && p + 19 <= o + PACKET_SIZE ? timestamp(chunk, p + 14) : pts;
    found.push({ streamId: chunk[p + 3]!, pts, dts });
  }
  return found;
}

/** The PTS (s) the packager's output starts from: its first video PES, else its first PES at all. */
export function firstPtsS(chunks: Buffer[]): number | undefined {
  let first: PesTimestamp | undefined;
  for (const chunk of chunks) {
    for (const ts of pesTimestamps(chunk)) {
      if (isVideo(ts.streamId)) return ts.pts / TICKS_PER_MS / 1000;
      first ??= ts;
    }
  }
  return first && first.pts / TICKS_PER_MS / 1000;
}

/**
 * Arrival wall clock minus DTS of the live packets, the least delayed of the last 10 s: wall time
 * (ms) of TS time 0. DTS, not PTS: a frame is complete at the server when its decode turn arrives.
 * Video is followed when the stream has any, audio otherwise.
 */
export class IngestClock {
  private samples: { atMs: number; offsetMs: number }[] = [];
  private video = false;

  observe(chunk: Buffer, nowMs: number): void {
    for (const ts of pesTimestamps(chunk)) {
      if (isVideo(ts.streamId) && !this.video) {
        this.video = true;
        this.samples = [];
      }
      if (isVideo(ts.streamId) !== this.video) continue;
      this.samples.push({ atMs: nowMs, offsetMs: nowMs - ts.dts / TICKS_PER_MS });
    }
    while (this.samples.length > 0 && nowMs - this.samples[0]!.atMs > WINDOW_MS) this.samples.shift();
  }

  /** Wall time (ms since epoch) of TS time 0; undefined before the first live access unit. */
  get offsetMs(): number | undefined {
    if (this.samples.length === 0) return undefined;
    let best = Number.POSITIVE_INFINITY;
    for (const s of this.samples) best = Math.min(best, s.offsetMs);
    return best;
  }
}
