import { parse, setOptions } from 'hls-parser';
import { describe, expect, it } from 'vitest';
import { mediaPlaylist } from '../media/hls-playlist.js';
import { AdMarks } from './inserter-marks.js';
import { pickByWeight } from './inserter-pick.js';

const segment = (sequence: number, discontinuity = false) => ({
  sequence,
  durationMs: 2000,
  discontinuity,
  data: Buffer.alloc(0),
});

describe('ad marks on the HLS playlist', () => {
  it('dates the segments, marks the break with DATERANGE out and in, and tells ad segments apart', () => {
    const marks = new AdMarks();
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 0);
    marks.onSegment(segment(1), t0 + 2000);
    marks.adStarted('ads/a.mp4', { id: 'ad-1', startDateMs: t0 + 2000, plannedS: 4 });
    marks.onSegment(segment(2, true), t0 + 4100);
    marks.onSegment(segment(3), t0 + 6100);
    marks.liveResumed(t0 + 6300);
    marks.onSegment(segment(4, true), t0 + 8400);
    const segments = [1, 2, 3, 4].map((n) => ({
      sequence: n,
      durationMs: 2000,
      discontinuity: n === 2 || n === 4,
    }));
    const text = marks.decorate(
      mediaPlaylist({ segments, targetDurationS: 2, discontinuitySequence: 0, query: '' }),
    );
    setOptions({ strictMode: true, silent: true });
    const parsed = parse(text) as unknown as {
      segments: {
        programDateTime?: Date;
        dateRange?: { id: string; duration?: number; attributes: object };
      }[];
    };
    expect(parsed.segments.map((s) => s.programDateTime?.getTime())).toEqual([
      t0,
      t0 + 2000,
      t0 + 4000,
      t0 + 6300,
    ]);
    expect(parsed.segments[1]!.dateRange).toMatchObject({ id: 'ad-1', attributes: { 'X-CUE-OUT': 'YES' } });
    expect(parsed.segments[3]!.dateRange).toMatchObject({
      id: 'ad-1',
      duration: 4,
      attributes: { 'X-CUE-IN': 'YES' },
    });
    expect([1, 2, 3, 4].map((n) => marks.adOf(n))).toEqual([undefined, 'ads/a.mp4', 'ads/a.mp4', undefined]);
  });

  it('leaves a stream with no break as it was', () => {
    expect(new AdMarks().decorate('#EXTM3U\n')).toBe('#EXTM3U\n');
  });
});

describe('files picked by weight', () => {
  it('draws a file of weight 3 about three times as often as one of weight 1', () => {
    const a = { durationMs: 5000 };
    const b = { durationMs: 5000 };
    const files = [
      { weight: 3, file: a },
      { weight: 1, file: b },
    ];
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const picks = Array.from({ length: 4000 }, () => pickByWeight(files, 5000, random)[0]);
    const share = picks.filter((f) => f === a).length / picks.length;
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.8);
  });
});
