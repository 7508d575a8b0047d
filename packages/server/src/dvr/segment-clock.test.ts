import { describe, expect, it } from 'vitest';
import { placeSegment } from './segment-clock.js';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);

describe('segment clock', () => {
  it('continues the previous segment when the media and the clock agree', () => {
    // Cut 300 ms late on a busy event loop: still the previous segment's end.
    expect(
      placeSegment({
        nowMs: T0 + 2300,
        durationMs: 2000,
        discontinuity: false,
        previousEndMs: T0,
        continues: true,
      }),
    ).toEqual({ startMs: T0, durationMs: 2000, discontinuity: false });
  });

  it('starts where the wall clock says, flagged, after a break, a restart or a clock off by over a second', () => {
    const first = { nowMs: T0 + 2000, durationMs: 2000, discontinuity: false };
    expect(placeSegment({ ...first, previousEndMs: undefined, continues: false })).toEqual({
      startMs: T0,
      durationMs: 2000,
      discontinuity: true,
    });
    // After a restart: the archive ended 10 s ago.
    expect(placeSegment({ ...first, previousEndMs: T0 - 10_000, continues: false }).discontinuity).toBe(true);
    // The media continues but the segment came 3 s late: the wall clock wins.
    expect(placeSegment({ ...first, nowMs: T0 + 5000, previousEndMs: T0, continues: true })).toEqual({
      startMs: T0 + 3000,
      durationMs: 2000,
      discontinuity: true,
    });
    // A source switch without a gap: flagged, and never before the previous end.
    expect(
      placeSegment({ ...first, nowMs: T0 + 1500, discontinuity: true, previousEndMs: T0, continues: true }),
    ).toEqual({ startMs: T0, durationMs: 2000, discontinuity: true });
  });
});
