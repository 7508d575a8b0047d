import { describe, expect, it } from 'vitest';
import { WallGap } from './segment-gap.js';
import { SegmentWindow } from './segment-window.js';

describe('outage kept in the HLS timeline', () => {
  it('measures the wall-clock hole from where the old media ends to the new keyframe', () => {
    let nowMs = 1000;
    const gap = new WallGap(() => nowMs);
    gap.frame(90_000); // a frame at 1 s of media arrives at 1000 ms
    nowMs = 1040;
    gap.frame(93_600); // the last one, 40 ms later
    gap.ended(97_200); // its media ends 40 ms after it arrived: 1080 ms
    nowMs = 3580;
    expect(gap.started()).toBe(2500);
    // Once counted, and none at a start with nothing before it.
    expect(gap.started()).toBe(0);
  });

  it('lists no hole of a few frames (a switch back replays from the keyframe)', () => {
    let nowMs = 0;
    const gap = new WallGap(() => nowMs);
    gap.frame(0);
    gap.ended(3600);
    nowMs = 150;
    expect(gap.started()).toBe(0);
  });

  it('lists no hole at a planned switch (an ad break), whose video was trimmed to its audio', () => {
    let nowMs = 1000;
    const gap = new WallGap(() => nowMs);
    gap.frame(90_000);
    // The old source's last 0.5 s of video came without its audio and was dropped.
    gap.ended(45_000);
    gap.forget();
    nowMs = 1010;
    expect(gap.started()).toBe(0);
  });

  it('numbers the gap segments below the next one and serves only segments with media', () => {
    const window = new SegmentWindow(6, 2, 2);
    window.add(2000, false, Buffer.from('a'));
    window.add(1000, true, Buffer.from('b'), 4500);
    window.add(2000, false, Buffer.from('c'));
    const [a, b, c] = window.segments;
    // 4.5 s in three gap segments of 1.5 s, none over the 2 s target duration.
    expect(b!.gapsBeforeMs).toEqual([1500, 1500, 1500]);
    expect([b!.sequence - a!.sequence, c!.sequence - b!.sequence]).toEqual([4, 1]);
    expect(window.get(c!.sequence)?.data.toString()).toBe('c');
    expect(window.get(a!.sequence + 1)).toBeUndefined();
    expect(window.playlist()!.match(/#EXT-X-GAP/g)).toHaveLength(3);
  });
});
