/**
 * Reading and correcting the live MPD ffmpeg's dash muxer writes (ISO/IEC 23009-1). Its timeline
 * (SegmentTimeline S@t/@d) is right; its clock is not: availabilityStartTime is the wall clock of
 * the first packet ffmpeg read (seconds after that media was ingested, when the packager starts
 * from a backlog), maxSegmentDuration is the configured target whatever was cut, and there is no
 * UTCTiming. The packager knows better and rewrites those.
 */

export interface TimelineSegment {
  /** $Number$ of the segment. */
  number: number;
  /** Start and duration in `timescale` units. */
  t: number;
  d: number;
}

export interface AdaptationTimeline {
  contentType: string;
  timescale: number;
  segments: TimelineSegment[];
}

const attr = (tag: string, name: string): string | undefined =>
  new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];

/** Each AdaptationSet's segments, expanded from SegmentTimeline (S@r repeats, S@t gaps). */
export function parseTimelines(mpd: string): AdaptationTimeline[] {
  const sets: AdaptationTimeline[] = [];
  for (const set of mpd.split('<AdaptationSet').slice(1)) {
    const template = /<SegmentTemplate\b[^>]*>/.exec(set)?.[0];
    if (!template) continue;
    const timescale = Number(attr(template, 'timescale') ?? 1);
    let number = Number(attr(template, 'startNumber') ?? 1);
    const segments: TimelineSegment[] = [];
    let t = 0;
    for (const [s] of set.matchAll(/<S\b[^>]*>/g)) {
      const start = attr(s, 't');
      if (start !== undefined) t = Number(start);
      const d = Number(attr(s, 'd'));
      for (let i = 0; i <= Number(attr(s, 'r') ?? 0); i++) {
        segments.push({ number: number++, t, d });
        t += d;
      }
    }
    sets.push({
      contentType: attr(set.slice(0, set.indexOf('>')), 'contentType') ?? '',
      timescale,
      segments,
    });
  }
  return sets;
}

/** The longest segment a timeline lists, in seconds. */
export function longestSegmentS(timelines: AdaptationTimeline[]): number {
  let longest = 0;
  for (const set of timelines) for (const s of set.segments) longest = Math.max(longest, s.d / set.timescale);
  return longest;
}

export interface MpdClock {
  /** Wall-clock time (ms since epoch) of media time 0 of the timeline. */
  availabilityStartMs: number;
  /** The longest segment served so far, seconds: an upper bound for what the MPD lists. */
  maxSegmentS: number;
  /** Now, on the server's clock, given to players as UTCTiming (ms since epoch). */
  nowMs: number;
}

/** xs:dateTime with milliseconds, as DASH wants for wall-clock attributes. */
const isoMs = (ms: number): string => new Date(ms).toISOString();

/** An xs:duration of whole milliseconds, rounded up so a bound stays a bound. */
const durationS = (s: number): string => `PT${(Math.ceil(s * 1000) / 1000).toFixed(3)}S`;

/**
 * The MPD with its clock corrected: availabilityStartTime from the media timeline, an honest
 * maxSegmentDuration, and a UTCTiming. It is `direct` (the server's time as the MPD is answered,
 * DASH-IF IOP 4.7): the player needs no time request of its own, which cross-origin would need
 * CORS, and dash.js without any UTCTiming asks time.akamai.com, which a closed network lacks.
 */
export function rewriteMpd(mpd: string, clock: MpdClock): string {
  const timing = `\t<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="${isoMs(clock.nowMs)}"/>\n`;
  return mpd
    .replace(/availabilityStartTime="[^"]*"/, `availabilityStartTime="${isoMs(clock.availabilityStartMs)}"`)
    .replace(/maxSegmentDuration="[^"]*"/, `maxSegmentDuration="${durationS(clock.maxSegmentS)}"`)
    .replace(/\s*<UTCTiming\b[^>]*\/>/g, '')
    .replace(/<\/MPD>/, `${timing}</MPD>`);
}
