import { createHash } from 'node:crypto';
import { parse as parseHls, setOptions as setHlsOptions } from 'hls-parser';

/** A media playlist read by our own few lines, so the rules below don't lean on the parser checked. */
export interface MediaList {
  targetDurationS: number;
  mediaSequence: number;
  discontinuitySequence: number;
  segments: { uri: string; sequence: number; durationS: number; discontinuity: boolean; dseq: number }[];
}

export function readMediaList(text: string): MediaList {
  const num = (tag: string) => Number(new RegExp(`^#${tag}:(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  const list: MediaList = {
    targetDurationS: num('EXT-X-TARGETDURATION'),
    mediaSequence: num('EXT-X-MEDIA-SEQUENCE'),
    discontinuitySequence: Number.isNaN(num('EXT-X-DISCONTINUITY-SEQUENCE'))
      ? 0
      : num('EXT-X-DISCONTINUITY-SEQUENCE'),
    segments: [],
  };
  let durationS = NaN;
  let discontinuity = false;
  let dseq = list.discontinuitySequence;
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXTINF:')) durationS = Number(/^#EXTINF:([\d.]+)/.exec(line)?.[1]);
    else if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
    else if (line && !line.startsWith('#')) {
      if (discontinuity) dseq++;
      const sequence = list.mediaSequence + list.segments.length;
      list.segments.push({ uri: line, sequence, durationS, discontinuity, dseq });
      discontinuity = false;
    }
  }
  return list;
}

/** The strict parser's verdict on a playlist: undefined when it takes it, else its message. */
export function strictParseError(text: string): string | undefined {
  setHlsOptions({ strictMode: true, silent: true });
  try {
    parseHls(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export interface FetchedSegment {
  uri: string;
  sequence: number;
  durationS: number;
  discontinuity: boolean;
  data: Buffer;
  sha1: string;
}

/** What a player polling a live stream saw over a while. */
export interface Observation {
  /** Every distinct media playlist text, in order. */
  versions: string[];
  /** Each segment as first downloaded, by URI. */
  segments: Map<string, FetchedSegment>;
  /** Later downloads of a URI whose bytes differed from the first. */
  changedUris: string[];
  /** A master playlist with the media playlist read just before and just after it (the same text). */
  masters: { master: string; media: string }[];
  /** HTTP failures outside the windows the test allowed. */
  failures: string[];
}

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

async function get(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

/**
 * Polls `${base}/video.m3u8` and `index.m3u8` every `pollMs` until `untilMs` (epoch), into `seen`, downloading
 * each segment when first listed and again when a URI comes back after leaving the playlist.
 * `excused()` true: a failed request is expected (the stream restarting) and not recorded.
 */
export const newObservation = (): Observation => ({
  versions: [],
  segments: new Map(),
  changedUris: [],
  masters: [],
  failures: [],
});

export async function observeHls(
  base: string,
  untilMs: number,
  excused: () => boolean,
  seen = newObservation(),
  pollMs = 300,
): Promise<Observation> {
  let listed = new Set<string>();
  const fail = (what: string) => {
    if (!excused()) seen.failures.push(`${new Date().toISOString()} ${what}`);
  };
  const download = async (uri: string, s: MediaList['segments'][number]) => {
    const response = await fetch(`${base}/${uri}`);
    if (!response.ok) return fail(`${uri}: HTTP ${response.status}`);
    const data = Buffer.from(await response.arrayBuffer());
    const first = seen.segments.get(uri);
    if (!first) seen.segments.set(uri, { ...s, data, sha1: sha1(data) });
    else if (first.sha1 !== sha1(data)) seen.changedUris.push(uri);
  };
  while (Date.now() < untilMs) {
    const before = await get(`${base}/video.m3u8`);
    if (before.status !== 200) fail(`video.m3u8: HTTP ${before.status} ${before.text}`);
    else {
      if (before.text !== seen.versions.at(-1)) seen.versions.push(before.text);
      const list = readMediaList(before.text);
      for (const s of list.segments)
        if (!seen.segments.has(s.uri) || !listed.has(s.uri)) await download(s.uri, s);
      listed = new Set(list.segments.map((s) => s.uri));
      const master = await get(`${base}/index.m3u8`);
      const after = await get(`${base}/video.m3u8`);
      if (master.status !== 200) fail(`index.m3u8: HTTP ${master.status} ${master.text}`);
      else if (after.text === before.text) seen.masters.push({ master: master.text, media: before.text });
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return seen;
}

/**
 * RFC 8216 rules over the versions of one live media playlist, as broken-rule messages:
 * §4.3.3.1 TARGETDURATION constant and >= every EXTINF rounded; §6.2.1 MEDIA-SEQUENCE never
 * backwards, a sequence number (and its URI) never reused for different content; §6.2.2
 * DISCONTINUITY-SEQUENCE keeping each segment's discontinuity number, and no segment removed while
 * the playlist would last less than three target durations.
 */
export function playlistRuleBreaks(versions: readonly string[]): string[] {
  const breaks: string[] = [];
  const bySequence = new Map<number, { uri: string; durationS: number; dseq: number }>();
  let previous: MediaList | undefined;
  for (const text of versions) {
    const list = readMediaList(text);
    const td = list.targetDurationS;
    if (previous && td !== previous.targetDurationS)
      breaks.push(`TARGETDURATION changed ${previous.targetDurationS} -> ${td}`);
    if (previous && list.mediaSequence < previous.mediaSequence)
      breaks.push(`MEDIA-SEQUENCE went back ${previous.mediaSequence} -> ${list.mediaSequence}`);
    for (const s of list.segments) {
      if (Math.round(s.durationS) > td)
        breaks.push(`EXTINF ${s.durationS} of ${s.uri} over TARGETDURATION ${td}`);
      const known = bySequence.get(s.sequence);
      if (!known) bySequence.set(s.sequence, s);
      else if (known.uri !== s.uri || known.durationS !== s.durationS)
        breaks.push(
          `sequence ${s.sequence} reused: ${known.uri} ${known.durationS} s, now ${s.uri} ${s.durationS} s`,
        );
      else if (known.dseq !== s.dseq)
        breaks.push(`discontinuity number of ${s.uri} changed ${known.dseq} -> ${s.dseq}`);
    }
    const totalS = list.segments.reduce((sum, s) => sum + s.durationS, 0);
    if (previous && list.mediaSequence > previous.mediaSequence && totalS < 3 * td)
      breaks.push(`segments removed while the playlist lasts ${totalS.toFixed(3)} s < 3 x ${td} s`);
    previous = list;
  }
  const sequences = [...bySequence.keys()].sort((a, b) => a - b);
  for (let i = 1; i < sequences.length; i++) {
    const [a, b] = [bySequence.get(sequences[i - 1]!)!, bySequence.get(sequences[i]!)!];
    if (b.dseq < a.dseq) breaks.push(`discontinuity number went back at sequence ${sequences[i]}`);
  }
  const uris = new Map<string, number>();
  for (const [sequence, s] of bySequence) {
    if (uris.has(s.uri)) breaks.push(`URI ${s.uri} names sequences ${uris.get(s.uri)} and ${sequence}`);
    uris.set(s.uri, sequence);
  }
  return [...new Set(breaks)];
}

/** RFC 8216's peak segment bit rate of a playlist: consecutive segments lasting 0.5–1.5 TARGETDURATION. */
export function peakSegmentBps(
  list: MediaList,
  sizeOf: (uri: string) => number | undefined,
): number | undefined {
  const td = list.targetDurationS;
  let peak: number | undefined;
  for (let i = 0; i < list.segments.length; i++) {
    let [bytes, seconds] = [0, 0];
    for (let j = i; j < list.segments.length; j++) {
      const size = sizeOf(list.segments[j]!.uri);
      if (size === undefined) return undefined;
      bytes += size;
      seconds += list.segments[j]!.durationS;
      if (seconds > 1.5 * td) break;
      if (seconds >= 0.5 * td) peak = Math.max(peak ?? 0, (bytes * 8) / seconds);
    }
  }
  return peak;
}

/** A master playlist's BANDWIDTH and AVERAGE-BANDWIDTH of its first variant. */
export function variantBandwidth(master: string): { peak: number; average: number | undefined } {
  const line = master.split('\n').find((l) => l.startsWith('#EXT-X-STREAM-INF:')) ?? '';
  const average = /AVERAGE-BANDWIDTH=(\d+)/.exec(line)?.[1];
  return {
    peak: Number(/[:,]BANDWIDTH=(\d+)/.exec(line)?.[1]),
    average: average === undefined ? undefined : Number(average),
  };
}
