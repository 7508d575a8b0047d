/**
 * A stream's DASH packager state: its periods (one ffmpeg each, see dash-periods.ts) and the one
 * MPD made of their MPDs, with the clock of dash-mpd.ts.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Supervisor } from '../engine/ffmpeg/supervisor.js';
import type { PacketBus } from '../media/packet-bus.js';
import type { IngestClock } from './dash-ingest-clock.js';
import { emptyEditS } from './dash-init-edit.js';
import { type AdaptationTimeline, longestSegmentS, parseTimelines, rewriteMpd } from './dash-mpd.js';
import { composePeriods, type PeriodText } from './dash-periods.js';

/** One ffmpeg's output: the stream from one splice (or the packager's start) to the next. */
export interface Period {
  id: number;
  /** Its folder: the packager's own for period 0, p<id>/ in it for the others. */
  dir: string;
  remux: Supervisor;
  clock: IngestClock;
  /** PTS (s) of the first access unit given to its ffmpeg: the source time of its timeline's start. */
  startPtsS: number | undefined;
  /** Media time (s) of its timeline's first segment, once ffmpeg has listed it. */
  originS?: number;
  /** Period@start (s), fixed once known (period 0: 0). */
  startS?: number;
  /** The newest MPD its ffmpeg wrote. */
  mpd?: string;
  /**
   * The newest $Number$ a manifest listed, by representation: a request for a later one waits for
   * it. Each track counts its own: ffmpeg numbers a track's segments as it flushes that track.
   */
  newestNumbers: Map<string, number>;
  /** When its input ended (a splice started the next), ms since epoch. */
  endedAtMs?: number;
  /** Each representation's leading empty edit (s), read from its init once listed. */
  editsS?: Map<string, number>;
}

export interface Packager {
  bus: PacketBus;
  dir: string;
  /** Oldest first; the last one is live. */
  periods: Period[];
  unsubscribe: () => void;
  lastUsedAt: number;
  targetS: number;
  /** Fixed on the first manifest answered: players read it on every refresh. */
  availabilityStartMs?: number;
  maxSegmentS: number;
  /** The newest MPD of a live ffmpeg: the MPD element and header every answer is made of. */
  head?: string;
  /** Ends the live period when its input has stopped for SILENCE_MS. */
  silenceTimer: NodeJS.Timeout;
}

/**
 * suggestedPresentationDelay, in segments. ffmpeg says one segment: a player that far behind the
 * live edge needs each segment the moment it is made, and dash.js stalled 3 s at its start.
 */
const PRESENTATION_DELAY_SEGMENTS = 3;
/** An ended period stays listed (and its files kept) this long after its end. */
const PERIOD_KEEP_MS = 40_000;
/**
 * A new source that starts less than this after the old one's media ended came without an outage
 * (a switch back to a source that returned): its period starts where that media ends. See datePeriod.
 */
const SNAP_S = 1;
/** How long a new period waits to be dated for the ffmpeg of the one before to write its last MPD. */
const LAST_MPD_WAIT_MS = 3_000;

/**
 * The MPD players get: the periods' MPDs (each ffmpeg's, read afresh) as one, with a clock.
 * Media time 0 of period 0's timeline is the source's `startPtsS` (ffmpeg shifts its input to
 * start at 0), and TS time 0 came in at the ingest clock's offset: that dates
 * availabilityStartTime. A later period starts where the wall clock was when its first
 * keyframe came in. Undefined until period 0 has a segment and a clock.
 */
export async function composeManifest(packager: Packager, timeUrl: string): Promise<string | undefined> {
  for (const period of packager.periods) {
    const text = await readFile(join(period.dir, 'index.mpd'), 'utf8').catch(() => undefined);
    if (text) period.mpd = text;
    // ffmpeg's last MPD, written as its input ends, is static: the answer stays dynamic.
    if (text?.includes('type="dynamic"')) packager.head = text;
  }
  const zero = packager.periods[0]!;
  if (
    packager.availabilityStartMs === undefined &&
    !(zero.id === 0 && zero.mpd && datePeriod(packager, zero))
  )
    return undefined;
  if (!packager.head) return undefined;
  const listed: { period: Period; mpd: string }[] = [];
  const nowMs = Date.now();
  for (const period of packager.periods) {
    if (!period.mpd || expired(period, nowMs) || !datePeriod(packager, period)) continue;
    // Listed with its edits only: its presentationTimeOffset must not change once players read it.
    if (period.id !== 0 && !(period.editsS ??= await readEdits(period, parseTimelines(period.mpd)))) continue;
    listed.push({ period, mpd: period.mpd });
  }
  for (const { period, mpd } of listed) {
    const timelines = parseTimelines(mpd);
    for (const set of timelines) {
      const number = set.segments.at(-1)?.number ?? 0;
      const known = period.newestNumbers.get(set.representationId) ?? 0;
      period.newestNumbers.set(set.representationId, Math.max(known, number));
    }
    packager.maxSegmentS = Math.max(packager.maxSegmentS, longestSegmentS(timelines));
  }
  prune(packager, nowMs);
  if (listed.length === 0) return undefined;
  const only = listed.length === 1 && listed[0]!.period.id === 0;
  const text = only
    ? packager.head
    : composePeriods(
        packager.head,
        listed.map(({ period, mpd }): PeriodText => ({
          id: period.id,
          startS: period.startS!,
          offsetS: period.id === 0 ? 0 : period.originS!,
          mpd,
          query: period.id === 0 ? '' : `p=${period.id}`,
          editsS: period.editsS,
        })),
      );
  return rewriteMpd(
    text,
    {
      availabilityStartMs: packager.availabilityStartMs!,
      maxSegmentS: packager.maxSegmentS,
      nowMs,
      presentationDelayS: PRESENTATION_DELAY_SEGMENTS * packager.targetS,
    },
    timeUrl,
  );
}

/** The empty edit of each representation's init (dash-init-edit.ts); undefined until all are written. */
async function readEdits(
  period: Period,
  timelines: AdaptationTimeline[],
): Promise<Map<string, number> | undefined> {
  const edits = new Map<string, number>();
  for (const { representationId } of timelines) {
    const init = await readFile(join(period.dir, `init-stream${representationId}.m4s`)).catch(
      () => undefined,
    );
    if (!init) return undefined;
    edits.set(representationId, emptyEditS(init));
  }
  return edits;
}

/** Sets the period's origin and start (and, for period 0, availabilityStartTime) once known. */
function datePeriod(packager: Packager, period: Period): boolean {
  if (period.startS !== undefined) return true;
  const timelines = parseTimelines(period.mpd ?? '');
  const video = timelines.find((t) => t.contentType === 'video') ?? timelines[0];
  const origin = video?.segments[0];
  if (!video || !origin) return false;
  if (origin.number === 1) period.originS ??= origin.t / video.timescale;
  const offsetMs = period.clock.offsetMs;
  if (period.id === 0) {
    if (period.originS === undefined || period.startPtsS === undefined) {
      // Not seen from its start (no live packet for a whole window): ffmpeg's own clock.
      const own = Date.parse(/availabilityStartTime="([^"]+)"/.exec(period.mpd ?? '')?.[1] ?? '');
      packager.availabilityStartMs = Number.isNaN(own) ? Date.now() : own;
    } else if (offsetMs === undefined) {
      return false;
    } else {
      packager.availabilityStartMs = offsetMs + (period.startPtsS - period.originS) * 1000;
    }
    period.startS = 0;
    return true;
  }
  const ast = packager.availabilityStartMs;
  if (
    ast === undefined ||
    offsetMs === undefined ||
    period.startPtsS === undefined ||
    period.originS === undefined
  )
    return false;
  const previous = packager.periods[packager.periods.indexOf(period) - 1];
  // Its last segment is listed once its ffmpeg has finished (soon after its input ended).
  if (previous && running(previous) && Date.now() - (previous.endedAtMs ?? 0) < LAST_MPD_WAIT_MS)
    return false;
  const before = previous?.startS ?? 0;
  const wallS = (offsetMs + period.startPtsS * 1000 - ast) / 1000;
  // At a switch the old source's audio ends a few hundred ms short of its video: muxers send audio
  // late, and what was still to come of it never came. Starting the new period where the old one's
  // media first ends cuts that video tail (players append within a period's bounds), so both tracks
  // end together and the new source follows at once. Left as it was, dash.js stood at the audio's
  // end until the new period played, and once (1 run in ~10 under load) stood there for good.
  const previousEndS = previous && !running(previous) ? mediaEndS(previous) : undefined;
  const end = previousEndS === undefined ? undefined : before + previousEndS;
  const snap = end !== undefined && wallS - end < SNAP_S && end > before;
  period.startS = Math.max(before + 0.001, snap ? end : wallS);
  return true;
}

/**
 * Where the period's media ends, seconds from its start: the earliest end of its tracks. Each
 * track's timeline is offset by the period's origin (dash-periods.ts composePeriods).
 */
function mediaEndS(period: Period): number | undefined {
  const offsetS = period.id === 0 ? 0 : period.originS;
  if (offsetS === undefined) return undefined;
  let end: number | undefined;
  for (const set of parseTimelines(period.mpd ?? '')) {
    const last = set.segments.at(-1);
    if (!last) continue;
    const trackEndS = (last.t + last.d) / set.timescale - offsetS;
    end = end === undefined ? trackEndS : Math.min(end, trackEndS);
  }
  return end;
}

/** Ended periods past keeping: no longer listed, ffmpeg gone, files removed. */
function prune(packager: Packager, nowMs: number): void {
  for (;;) {
    const oldest = packager.periods[0]!;
    if (packager.periods.length < 2 || !expired(oldest, nowMs)) return;
    packager.periods.shift();
    void oldest.remux.stop();
    // Period 0's folder holds the others'.
    if (oldest.id !== 0) void rm(oldest.dir, { recursive: true, force: true });
  }
}

const expired = (period: Period, nowMs: number): boolean =>
  period.endedAtMs !== undefined && nowMs - period.endedAtMs > PERIOD_KEEP_MS;

export const running = (period: Period): boolean =>
  period.remux.state === 'starting' || period.remux.state === 'running';
