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
  /** Its (first) Representation's id: $RepresentationID$ in segment names. */
  representationId: string;
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
      representationId: attr(/<Representation\b[^>]*>/.exec(set)?.[0] ?? '', 'id') ?? '',
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
  /** How far behind the live edge players should present: suggestedPresentationDelay (s). */
  presentationDelayS: number;
}

/** xs:dateTime with milliseconds, as DASH wants for wall-clock attributes. */
const isoMs = (ms: number): string => new Date(ms).toISOString();

/** An xs:duration of whole milliseconds, rounded up so a bound stays a bound. */
const durationS = (s: number): string => `PT${(Math.ceil(s * 1000) / 1000).toFixed(3)}S`;

/**
 * The MPD with its clock corrected: availabilityStartTime from the media timeline, an honest
 * maxSegmentDuration, a suggestedPresentationDelay, and UTCTiming. First http-xsdate on
 * `timeUrl` (relative: players resolve it against the MPD's URL), which dash.js times with the
 * request's round trip; then direct (the server's time as the MPD was made), which needs no
 * request but is off by however long the MPD took to reach the player and be read (0.7 s seen
 * under load). Without any, dash.js asks time.akamai.com, which a closed network lacks.
 */
export function rewriteMpd(mpd: string, clock: MpdClock, timeUrl: string): string {
  const timing =
    `\t<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="${escapeXml(timeUrl)}"/>\n` +
    `\t<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="${isoMs(clock.nowMs)}"/>\n`;
  return mpd
    .replace(/availabilityStartTime="[^"]*"/, `availabilityStartTime="${isoMs(clock.availabilityStartMs)}"`)
    .replace(/maxSegmentDuration="[^"]*"/, `maxSegmentDuration="${durationS(clock.maxSegmentS)}"`)
    .replace(
      /suggestedPresentationDelay="[^"]*"/,
      `suggestedPresentationDelay="${durationS(clock.presentationDelayS)}"`,
    )
    .replace(/\s*<UTCTiming\b[^>]*\/>/g, '')
    .replace(/<\/MPD>/, `${timing}</MPD>`);
}

const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
