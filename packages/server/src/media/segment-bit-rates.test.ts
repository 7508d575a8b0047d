import { describe, expect, it } from 'vitest';
import { segmentBitRates } from './segment-bit-rates.js';

const seg = (bytes: number, durationMs: number) => ({ data: { length: bytes }, durationMs });

describe('segmentBitRates', () => {
  it('advertises the peak segment and the window average, not a time average', () => {
    // 250 kB, 500 kB and 250 kB in 2 s each: 1, 2 and 1 Mbit/s.
    const rates = segmentBitRates([seg(250_000, 2000), seg(500_000, 2000), seg(250_000, 2000)], 2000);
    expect(rates).toEqual({ peakBps: 2_000_000, averageBps: (1_000_000 * 8000) / 6000 });
  });

  it('measures a short splice segment with its neighbour, as a player downloads it', () => {
    // A 40 ms segment holding a keyframe (20 kB: 4 Mbit/s alone) before a 2 s one at 1 Mbit/s.
    const rates = segmentBitRates([seg(250_000, 2000), seg(20_000, 40), seg(250_000, 2000)], 2000);
    expect(rates!.peakBps).toBeCloseTo((270_000 * 8000) / 2040, 6);
  });

  it('counts a segment longer than 1.5 target durations alone', () => {
    const rates = segmentBitRates([seg(2_500_000, 20_000), seg(5_000_000, 20_000)], 2000);
    expect(rates!.peakBps).toBe(2_000_000);
    expect(rates!.averageBps).toBe(1_500_000);
  });

  it('covers the target duration the playlist rounds to: sets from half a whole second', () => {
    // segment_duration 2400 may be stated as 2 s: a 1.1 s set at 3 Mbit/s is within the RFC's bounds.
    const rates = segmentBitRates([seg(412_500, 1100), seg(300_000, 2400)], 2400);
    expect(rates!.peakBps).toBe(3_000_000);
  });

  it('changes only when the window does: the same segments give the same figures', () => {
    const window = [seg(250_000, 2000), seg(300_000, 1960), seg(260_000, 2040)];
    expect(segmentBitRates(window, 2000)).toEqual(segmentBitRates([...window], 2000));
  });

  it('has nothing to say before a segment with a duration', () => {
    expect(segmentBitRates([], 2000)).toBeUndefined();
    expect(segmentBitRates([seg(1000, 0)], 2000)).toBeUndefined();
  });
});
