/**
 * DASH Periods at source splices (DASH-IF IOP 4.11 "multi-period"). ffmpeg's dash muxer keeps one
 * timeline for its life: after a source switch the new source's timestamps are its own, and
 * ffmpeg glued it on behind the old one (each outage left the timeline further behind the wall
 * clock: 28 s after ten failovers), or, shifted to the wall clock, filled the outage by stretching
 * the new source's first frames over it (dash.js stood still 5 s past each outage). So each
 * splice starts a new ffmpeg, and the MPD lists one Period per ffmpeg still in the window, each
 * starting at the wall time of its first keyframe.
 */

const PACKET_SIZE = 188;

/**
 * Where in `chunk` a new source starts (byte offset), or -1. The bus flags the first packet of
 * each PID after a switch (or a timestamp jump) with the discontinuity_indicator; a flagged PES
 * start of a PID the current splice has already seen is the next splice. `seen` carries the
 * current splice's PIDs from chunk to chunk.
 */
export function spliceStart(chunk: Buffer, seen: Set<number>): number {
  for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) {
    if (chunk[o] !== 0x47 || !(chunk[o + 1]! & 0x40)) continue;
    const control = (chunk[o + 3]! >> 4) & 0x03;
    if (control !== 0x03 || chunk[o + 4]! === 0 || !(chunk[o + 5]! & 0x80)) continue;
    const p = o + 5 + chunk[o + 4]!;
    if (p + 9 > o + PACKET_SIZE || chunk[p] !== 0 || chunk[p + 1] !== 0 || chunk[p + 2] !== 1) continue;
    if (!(chunk[p + 7]! >> 7)) continue;
    const pid = ((chunk[o + 1]! & 0x1f) << 8) | chunk[o + 2]!;
    if (seen.size > 0 && !seen.has(pid)) {
      seen.add(pid);
      continue;
    }
    seen.clear();
    seen.add(pid);
    return o;
  }
  return -1;
}

/**
 * Where in `chunk` a video keyframe starts (byte offset), or -1: a PES start of a video stream
 * (stream_id 0xE0–0xEF) flagged random_access_indicator. A period closed by silence starts again
 * there when the same source comes back.
 */
export function keyframeStart(chunk: Buffer): number {
  for (let o = 0; o + PACKET_SIZE <= chunk.length; o += PACKET_SIZE) {
    if (chunk[o] !== 0x47 || !(chunk[o + 1]! & 0x40)) continue;
    const control = (chunk[o + 3]! >> 4) & 0x03;
    if (control !== 0x03 || chunk[o + 4]! === 0 || !(chunk[o + 5]! & 0x40)) continue;
    const p = o + 5 + chunk[o + 4]!;
    if (p + 4 > o + PACKET_SIZE || chunk[p] !== 0 || chunk[p + 1] !== 0 || chunk[p + 2] !== 1) continue;
    if (chunk[p + 3]! >= 0xe0 && chunk[p + 3]! <= 0xef) return o;
  }
  return -1;
}

export interface PeriodText {
  id: number;
  /** Period@start (s) on the presentation timeline. */
  startS: number;
  /** presentationTimeOffset in seconds: the media time presented at `startS`. */
  offsetS: number;
  /** The MPD its ffmpeg wrote. */
  mpd: string;
  /** Query added to its segment and init URLs (its files are in a folder of their own). */
  query: string;
  /** Each representation's leading empty edit (s), by id: see dash-init-edit.ts. */
  editsS?: ReadonlyMap<string, number>;
}

const PERIOD = /<Period\b[^>]*>([\s\S]*?)<\/Period>/;
const REPRESENTATION_ID = /<Representation\b[^>]*\bid="([^"]*)"/g;

/**
 * How far after its Period@start a period's first frame is presented. Chromium drops a video
 * frame presented before the SourceBuffer's appendWindowStart (dash.js sets it to Period@start),
 * and with it every frame up to the next keyframe. ffmpeg's S@t counts the video's empty edit
 * (dash-init-edit.ts), which the fragments' tfdt and MSE do not: the keyframe landed 10–30 ms
 * before the start and each new period lost its first GOP (0.45 s of a 0.48 s GOP, at every
 * failover). The edit is taken off; this covers its rounding to the millisecond. Well under a
 * frame: players play across it.
 */
const FIRST_FRAME_LEAD_S = 0.005;

/** Seconds as xs:duration, to the millisecond. */
const seconds = (s: number): string => `PT${(Math.round(s * 1000) / 1000).toFixed(3)}S`;

/**
 * One MPD of several Periods: `head` (an MPD of the live ffmpeg: its MPD element, header and
 * trailer) with its Period replaced by each period's AdaptationSets, ids and starts set, segment
 * URLs given the period's query and presentationTimeOffset.
 */
export function composePeriods(head: string, periods: PeriodText[]): string {
  const elements = periods.map((period) => {
    const inner = PERIOD.exec(period.mpd)?.[1] ?? '';
    const sets = inner
      .replace(/\b(initialization|media)="([^"?]*)"/g, (_m, name: string, url: string) =>
        period.query ? `${name}="${url}?${period.query}"` : `${name}="${url}"`,
      )
      .replace(/<SegmentTemplate\b([^>]*)>/g, (_m, attrs: string, at: number, all: string) => {
        const timescale = Number(/\btimescale="(\d+)"/.exec(attrs)?.[1] ?? 1);
        // The representation it is in: the last one opened before it.
        const id = [...all.slice(0, at).matchAll(REPRESENTATION_ID)].at(-1)?.[1] ?? '';
        // The media time (tfdt, what MSE places) presented at the period's start.
        const mediaS = period.offsetS - (period.editsS?.get(id) ?? 0) - FIRST_FRAME_LEAD_S;
        const offset = Math.max(0, Math.floor(mediaS * timescale));
        return `<SegmentTemplate presentationTimeOffset="${offset}"${attrs}>`;
      });
    return `<Period id="${period.id}" start="${seconds(period.startS)}">${sets}</Period>`;
  });
  const at = head.search(PERIOD);
  if (at < 0) return head;
  const end = head.indexOf('</Period>', at) + '</Period>'.length;
  return `${head.slice(0, at)}${elements.join('\n\t')}${head.slice(end)}`;
}
