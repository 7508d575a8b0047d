import type { Segment } from '../media/segment-window.js';

interface Mark {
  /** Program date of the segment's start (epoch ms). */
  dateMs: number;
  durationMs: number;
  /** The ad file the segment carries (a schedule file name), when it is an ad segment. */
  ad?: string;
  cueOut?: Cue;
  cueIn?: Cue & { durationMs: number };
}

interface Cue {
  id: string;
  startDateMs: number;
  plannedS: number;
}

/** Marks kept per stream: the playlist window and what is kept after it fits in far fewer. */
const MARKS_KEPT = 64;

/**
 * What the ad breaks of one stream did to its HLS segments, by sequence: which are ad segments (for
 * view counting) and where a break starts and ends (for the playlist's EXT-X-DATERANGE). Fed by the
 * segmenter's published segments; the switches come in through adStarted / liveResumed and apply
 * to the next segment that starts a new timeline (the one the switch's discontinuity opened).
 */
export class AdMarks {
  private readonly marks = new Map<number, Mark>();
  private mode: 'live' | 'ad-pending' | 'ad' | 'live-pending' = 'live';
  private pendingFile: string | undefined;
  private file: string | undefined;
  private cue: Cue | undefined;
  private adDurationMs = 0;
  private last: { sequence: number; dateMs: number; durationMs: number } | undefined;
  /** When the pending switch went on air: the date of the segment its discontinuity opens. */
  private switchedAtMs: number | undefined;

  /** An ad went on air at `cue.startDateMs` (the first of a break carries the cue). */
  adStarted(file: string, cue: Cue): void {
    this.pendingFile = file;
    this.switchedAtMs = cue.startDateMs;
    if (this.mode === 'live' || this.mode === 'live-pending') {
      this.mode = 'ad-pending';
      this.cue = cue;
      this.adDurationMs = 0;
    }
  }

  liveResumed(atMs: number): void {
    this.switchedAtMs = atMs;
    if (this.mode === 'ad') this.mode = 'live-pending';
    else if (this.mode === 'ad-pending') this.mode = 'live';
  }

  onSegment(segment: Segment, nowMs: number): void {
    const last = this.last;
    const follows = last && !segment.discontinuity && last.sequence === segment.sequence - 1;
    let dateMs = follows ? last.dateMs + last.durationMs : nowMs - segment.durationMs;
    if (segment.discontinuity && this.switchedAtMs !== undefined) {
      dateMs = this.switchedAtMs;
      this.switchedAtMs = undefined;
    }
    const mark: Mark = { dateMs, durationMs: segment.durationMs };
    if (segment.discontinuity) {
      if (this.mode === 'ad-pending' && this.cue) {
        this.mode = 'ad';
        mark.cueOut = this.cue;
      } else if (this.mode === 'live-pending' && this.cue) {
        this.mode = 'live';
        mark.cueIn = { ...this.cue, durationMs: this.adDurationMs };
      }
      if (this.mode === 'ad') this.file = this.pendingFile;
    }
    if ((this.mode === 'ad' || this.mode === 'live-pending') && this.file !== undefined) {
      mark.ad = this.file;
      this.adDurationMs += segment.durationMs;
    }
    this.marks.set(segment.sequence, mark);
    this.last = { sequence: segment.sequence, dateMs, durationMs: segment.durationMs };
    if (this.marks.size > MARKS_KEPT) this.marks.delete(this.marks.keys().next().value!);
  }

  /** The ad file a segment carries, if it is an ad segment. */
  adOf(sequence: number): string | undefined {
    return this.marks.get(sequence)?.ad;
  }

  /**
   * The media playlist with each known segment's EXT-X-PROGRAM-DATE-TIME and the breaks as
   * EXT-X-DATERANGE (RFC 8216 §4.3.2.7): at the first ad segment ID, START-DATE, PLANNED-DURATION
   * and X-CUE-OUT; at the first live segment after, the same ID and START-DATE with the DURATION
   * played and X-CUE-IN (tags sharing an ID repeat no attribute with another value).
   */
  decorate(text: string): string {
    if (this.marks.size === 0) return text;
    const lines = text.split('\n');
    const out: string[] = [];
    let tagsAt = -1;
    for (const line of lines) {
      // After the segment's DISCONTINUITY, before its EXTINF: the dates belong to the new timeline.
      if (tagsAt < 0 && line.startsWith('#EXTINF:')) tagsAt = out.length;
      const match = /^seg-(\d+)\.ts/.exec(line);
      const mark = match ? this.marks.get(Number(match[1])) : undefined;
      if (mark && tagsAt >= 0) out.splice(tagsAt, 0, ...tagsOf(mark));
      if (match) tagsAt = -1;
      out.push(line);
    }
    return out.join('\n');
  }
}

function tagsOf(mark: Mark): string[] {
  const tags = [`#EXT-X-PROGRAM-DATE-TIME:${new Date(mark.dateMs).toISOString()}`];
  const date = (ms: number) => `"${new Date(ms).toISOString()}"`;
  if (mark.cueOut) {
    const { id, startDateMs, plannedS } = mark.cueOut;
    tags.push(
      `#EXT-X-DATERANGE:ID="${id}",START-DATE=${date(startDateMs)},PLANNED-DURATION=${plannedS},X-CUE-OUT="YES"`,
    );
  }
  if (mark.cueIn) {
    const { id, startDateMs, plannedS, durationMs } = mark.cueIn;
    tags.push(
      `#EXT-X-DATERANGE:ID="${id}",START-DATE=${date(startDateMs)},PLANNED-DURATION=${plannedS},` +
        `DURATION=${(durationMs / 1000).toFixed(3)},X-CUE-IN="YES"`,
    );
  }
  return tags;
}
