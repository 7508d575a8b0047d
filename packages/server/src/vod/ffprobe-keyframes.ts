import { VOD_SEGMENT_TARGET_S, type VodSegment } from './vod-source.js';

/** A keyframe this close past the target still ends the segment there (timestamps are rounded). */
const SLACK_S = 0.01;

export interface VideoPackets {
  /** Presentation times (s, the file's clock) of the keyframes, ascending, each once. */
  keyframesS: number[];
  /** Bytes of all video packets: the video's bit rate where the container names none. */
  bytes: number;
}

/**
 * The video packets of `ffprobe -select_streams v:0 -show_entries packet=pts_time,dts_time,size,flags
 * -of csv=p=0`: one `pts,dts,size,flags,` line per packet (blank lines between). Reading packets is
 * cheaper than `-skip_frame nokey` frames, which decodes every keyframe (docs/vod.md Formats).
 */
export function parseVideoPackets(csv: string): VideoPackets {
  const keyframes: number[] = [];
  let bytes = 0;
  for (const line of csv.split('\n')) {
    if (!line) continue;
    const [pts, dts, size, flags] = line.split(',');
    bytes += Number(size) || 0;
    if (!flags?.startsWith('K')) continue;
    const at = Number(pts === 'N/A' ? dts : pts);
    if (Number.isFinite(at)) keyframes.push(at);
  }
  keyframes.sort((a, b) => a - b);
  return { keyframesS: keyframes.filter((t, i) => i === 0 || t !== keyframes[i - 1]), bytes };
}

/** Where a segment starts, on the file's clock (s), and whether that is a video keyframe. */
export interface Cut {
  atS: number;
  keyframe: boolean;
}

/**
 * Segment starts: at keyframes, each segment as long as it can be without passing `targetS`, or one
 * GOP when the GOP is longer. The first segment starts at the file's start (audio before the first
 * keyframe belongs to it); a file without keyframes is cut every `targetS`.
 */
export function cutsOf(
  keyframesS: readonly number[],
  fileStartS: number,
  durationS: number,
  targetS = VOD_SEGMENT_TARGET_S,
): Cut[] {
  const endS = fileStartS + durationS;
  const cuts: Cut[] = [{ atS: fileStartS, keyframe: keyframesS.length > 0 }];
  if (keyframesS.length === 0) {
    for (let at = fileStartS + targetS; at < endS - SLACK_S; at += targetS)
      cuts.push({ atS: at, keyframe: false });
    return cuts;
  }
  let start = keyframesS[0]!;
  for (let i = 1; i < keyframesS.length; i++) {
    const k = keyframesS[i]!;
    if (k >= endS - SLACK_S) break;
    // Cut here when going on to the next keyframe (or the end) would pass the target.
    const next = Math.min(keyframesS[i + 1] ?? endS, endS);
    if (next - start > targetS + SLACK_S && k - start > SLACK_S) {
      cuts.push({ atS: k, keyframe: true });
      start = k;
    }
  }
  return cuts;
}

/** The contract's segments (from the file's start, s) of the cuts of a file. */
export function segmentsOf(cuts: readonly Cut[], fileStartS: number, durationS: number): VodSegment[] {
  return cuts.map((cut, i) => {
    const end = cuts[i + 1]?.atS ?? fileStartS + durationS;
    return { startS: round(cut.atS - fileStartS), durationS: round(end - cut.atS) };
  });
}

const round = (s: number) => Math.round(s * 1e6) / 1e6;
