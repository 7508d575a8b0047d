import { describe, expect, it } from 'vitest';
import type { Pes } from '../fmp4/ts-elementary.js';
import { type CutPart, PartCutter } from './part-cutter.js';

const FRAME = 3600; // 25 fps on the 90 kHz clock
const pes = (dts: number): Pes => ({ pts: dts, dts, data: Buffer.alloc(1), randomAccess: false });

/** Feeds `frames` frames from `from`, a keyframe every `gop`; returns what was cut, segment by segment. */
function cut(
  frames: number,
  gop: number,
  segmentMs = 2000,
  options: { from?: number; jumpAt?: number } = {},
) {
  const segments: CutPart[][] = [[]];
  const cutter = new PartCutter(
    { part: (p) => segments[segments.length - 1]!.push(p), endSegment: () => segments.push([]) },
    { segmentMs, partTargetMs: 500, now: () => 1_000_000 },
  );
  let dts = options.from ?? 900_000;
  for (let i = 0; i < frames; i++) {
    if (i === options.jumpAt) dts += 90_000 * 60;
    cutter.video(pes(dts), i % gop === 0);
    cutter.audio(pes(dts));
    dts = (dts + FRAME) % 2 ** 33;
  }
  return segments.filter((s) => s.length > 0);
}

const seconds = (parts: CutPart[]) => parts.map((p) => p.duration90k / 90_000);

describe('part cutter', () => {
  it('cuts 2 s GOPs into parts of at most 0.5 s on frame boundaries, a segment per keyframe', () => {
    const segments = cut(50 * 3 + 1, 50);
    expect(segments).toHaveLength(3);
    for (const parts of segments) {
      expect(seconds(parts)).toEqual([0.48, 0.48, 0.48, 0.48, 0.08]);
      expect(parts.map((p) => p.independent)).toEqual([true, false, false, false, false]);
      expect(parts.map((p) => p.segmentStart)).toEqual([true, false, false, false, false]);
      // Audio goes with the part being filled: one PES per frame here.
      expect(parts.map((p) => p.audio.length)).toEqual(parts.map((p) => p.video.length));
    }
    expect(segments[1]![0]!.start90k - segments[0]![0]!.start90k).toBe(180_000);
  });

  it('cuts at the keyframe nearest the target with 1 s GOPs: 2 s segments', () => {
    const segments = cut(25 * 6 + 1, 25);
    expect(segments.map((s) => s.reduce((n, p) => n + p.duration90k, 0) / 90_000)).toEqual([2, 2, 2]);
  });

  it('ends a segment inside a GOP too long for EXT-X-TARGETDURATION, its next part not independent', () => {
    const segments = cut(250, 250);
    for (const parts of segments.slice(0, -1))
      expect(parts.reduce((n, p) => n + p.duration90k, 0)).toBeLessThanOrEqual(180_000);
    expect(segments[1]![0]!.independent).toBe(false);
    expect(segments[1]![0]!.segmentStart).toBe(true);
  });

  it('runs on across the 33-bit wrap of the TS clock', () => {
    const segments = cut(50 * 2 + 1, 50, 2000, { from: 2 ** 33 - 50 * FRAME });
    expect(segments.flat().every((p) => p.duration90k > 0)).toBe(true);
    expect(segments[1]![0]!.start90k).toBe(segments[0]![0]!.start90k + 180_000);
  });

  it('starts a discontinuity at the first keyframe after a timestamp jump, dropping what comes before it', () => {
    const segments = cut(200, 50, 2000, { jumpAt: 60 });
    const starts = segments.map((s) => s[0]!);
    expect(starts.map((p) => p.discontinuity)).toEqual([false, false, true, false]);
    // Frames 60-99 came after the jump but before its first keyframe (frame 100).
    expect(segments[1]!.reduce((n, p) => n + p.video.length, 0)).toBe(10);
    // The wall clock follows the media: each segment's date is its start on the timeline.
    const date = (p: CutPart) => p.clock.wallAt0 + p.start90k / 90;
    expect(date(segments[1]![0]!) - date(segments[0]![0]!)).toBe(2000);
    // All of it came at once (a backlog): the first frame is dated as far back as the newest frame of its timeline allows.
    expect(date(segments[0]![0]!)).toBe(1_000_000 - (59 * FRAME) / 90);
    // A new timeline gets its own clock.
    expect(segments[2]![0]!.clock).not.toBe(segments[0]![0]!.clock);
  });
});
