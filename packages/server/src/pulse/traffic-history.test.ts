import { describe, expect, it } from 'vitest';
import { TrafficHistory } from './traffic-history.js';

describe('TrafficHistory', () => {
  it('averages the seconds of each minute into one point, announced when the minute closes', () => {
    const history = new TrafficHistory();
    const heard: number[] = [];
    history.onPoint('a', (p) => heard.push(p.inKbit));
    const t0 = 60_000 * 1000;
    for (let s = 0; s < 60; s++) history.sample('a', s < 30 ? 1000 : 2000, 10, t0 + s * 1000);
    expect(history.points('a')).toEqual([]);
    history.sample('a', 500, 0, t0 + 60_000);
    expect(history.points('a')).toEqual([{ minute: t0, inKbit: 1500, outKbit: 10 }]);
    expect(heard).toEqual([1500]);
  });

  it('keeps a day: the oldest minutes leave first', () => {
    const history = new TrafficHistory();
    for (let m = 0; m <= 1500; m++) history.sample('a', m, 0, m * 60_000);
    const points = history.points('a');
    expect(points).toHaveLength(1440);
    expect(points[0]!.inKbit).toBe(60);
    expect(points.at(-1)!.inKbit).toBe(1499);
  });

  it('forgets a stream that went: its series leave memory, its minutes stay in the store', () => {
    const history = new TrafficHistory();
    // Minutes just before now: once the stream is forgotten, the day of `points` ends now.
    const t0 = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
    for (let m = 1; m <= 3; m++) history.sample('live/a', 100, 0, t0 + m * 60_000);
    expect(history.points('live/a')).toHaveLength(2);
    history.forget('live/a');
    expect(history.sampling('live/a')).toBe(false);
    expect(history.points('live/a').map((p) => p.inKbit)).toEqual([100, 100, 100]);
  });
});
