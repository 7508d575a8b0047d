import type { VodSegment } from './vod-source.js';
import type { Mp4Track } from './mp4-movie.js';

/**
 * Where a file is cut into segments: at the first video keyframe at or after the target length
 * from the segment's start (audio-only files: the first audio frame at or after it). Each
 * segment's samples of any track are found from these cuts, so every sample is in exactly one.
 */
export interface SegmentPlan {
  segments: VodSegment[];
  /** The track the cuts follow (the first video track, else the first audio track). */
  cutTrack: Mp4Track;
  /** Per segment, the first sample (decode order) of `cutTrack`; one more entry: its sample count. */
  firstSamples: number[];
  durationS: number;
}

/** A keyframe this close before the target still ends the segment (times are rounded to units). */
const EPSILON_S = 0.001;

/** Presentation time of sample `i`, seconds from the file's start. */
export function presentationS(track: Mp4Track, i: number): number {
  const t = track.table;
  return (t.dts[i]! + (t.cts ? t.cts[i]! : 0) + track.shiftUnits) / track.timescale;
}

/** Decode time of sample `i`, seconds from the file's start (the edit list's shift included). */
export function decodeS(track: Mp4Track, i: number): number {
  return (track.table.dts[i]! + track.shiftUnits) / track.timescale;
}

/** Frames at the end looked at for the latest presentation time (B-frames reorder a few at most). */
const REORDER_WINDOW = 32;

/** When the track's last frame ends being shown: its last decode time, or a reordered frame's later. */
export function trackEndS(track: Mp4Track): number {
  const t = track.table;
  let endUnits = t.durationUnits;
  if (t.cts && t.count > 0) {
    const lastDuration = t.durationUnits - t.dts[t.count - 1]!;
    for (let i = Math.max(0, t.count - REORDER_WINDOW); i < t.count; i++) {
      endUnits = Math.max(endUnits, t.dts[i]! + t.cts[i]! + lastDuration);
    }
  }
  return (endUnits + track.shiftUnits) / track.timescale;
}

export function planSegments(tracks: readonly Mp4Track[], targetS: number): SegmentPlan {
  const cutTrack = tracks.find((t) => t.entry.content === 'video') ?? tracks[0]!;
  const durationS = Math.max(...tracks.map(trackEndS), 0);
  const table = cutTrack.table;
  const video = cutTrack.entry.content === 'video';
  // Video: cuts only at sync samples (no 'stss': every sample is one); samples before the first
  // keyframe cannot be decoded and are left out.
  const candidates = video && table.sync ? table.sync : undefined;
  const candidateCount = candidates ? candidates.length : table.count;
  const sampleOf = (k: number) => (candidates ? candidates[k]! : k);
  const timeOf = (i: number) => (video ? presentationS(cutTrack, i) : decodeS(cutTrack, i));
  const firstSamples: number[] = [];
  const starts: number[] = [];
  let segmentStartS = -Infinity;
  for (let k = 0; k < candidateCount; k++) {
    const sample = sampleOf(k);
    const t = timeOf(sample);
    const previousS = starts[starts.length - 1] ?? -Infinity;
    if (firstSamples.length > 0 && (t < segmentStartS + targetS - EPSILON_S || t <= previousS)) continue;
    firstSamples.push(sample);
    // The first segment starts with the file: its first keyframe may come a frame or two late.
    starts.push(firstSamples.length === 1 ? 0 : t);
    segmentStartS = t;
  }
  if (firstSamples.length === 0) {
    firstSamples.push(0);
    starts.push(0);
  }
  firstSamples.push(table.count);
  const segments: VodSegment[] = starts.map((startS, k) => {
    const endS = k + 1 < starts.length ? starts[k + 1]! : Math.max(durationS, startS);
    return { startS, durationS: endS - startS };
  });
  return { segments, cutTrack, firstSamples, durationS };
}

/** The samples [from, to) of `track` in segment `index` of `plan`. */
export function segmentSamples(plan: SegmentPlan, track: Mp4Track, index: number): [number, number] {
  if (track === plan.cutTrack) return [plan.firstSamples[index]!, plan.firstSamples[index + 1]!];
  const last = plan.segments.length - 1;
  const fromS = index === 0 ? -Infinity : plan.segments[index]!.startS;
  const toS = index === last ? Infinity : plan.segments[index + 1]!.startS;
  return [firstAtOrAfter(track, fromS), firstAtOrAfter(track, toS)];
}

/** The first sample whose decode time is at or after `s` (decode times only grow). */
function firstAtOrAfter(track: Mp4Track, s: number): number {
  if (s === -Infinity) return 0;
  let lo = 0;
  let hi = track.table.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (decodeS(track, mid) < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
