import { parsePulseQuery } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { downsample, runPulseQuery } from './pulse-query-run.js';
import { PulseStore } from './pulse-store.js';

const T0 = Date.UTC(2026, 0, 1);

/** Two streams' output over the same 20 s: a at 100 then 300 kbit/s, b at 50. */
function twoStreams(): PulseStore {
  const store = new PulseStore();
  for (let s = 0; s < 20; s++) {
    store.record('media_output', { name: 'a' }, s < 10 ? 100 : 300, T0 + s * 1000);
    store.record('media_output', { name: 'b' }, 50, T0 + s * 1000);
  }
  return store;
}
const run = (store: PulseStore, text: string) =>
  runPulseQuery(store, parsePulseQuery(text)!, { fromMs: T0, toMs: T0 + 19_000, nowMs: T0 + 20_000 });

describe('runPulseQuery', () => {
  it('without a group, one series per tag set; tags filter', () => {
    const store = twoStreams();
    const all = run(store, 'media_output');
    expect(all.step_ms).toBe(1000);
    expect(all.series.map((s) => s.tags)).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(all.series[0]!.points).toHaveLength(20);
    expect(run(store, 'media_output{name=b}').series.map((s) => s.tags)).toEqual([{ name: 'b' }]);
    expect(run(store, 'media_output{name=c}').series).toEqual([]);
  });

  it('a group combines the series at each point: sum, max, min', () => {
    const store = twoStreams();
    expect(run(store, 'sum:media_output').series).toEqual([
      { tags: {}, points: Array.from({ length: 20 }, (_, s) => [T0 + s * 1000, s < 10 ? 150 : 350]) },
    ]);
    expect(run(store, 'max:media_output').series[0]!.points[0]).toEqual([T0, 100]);
    expect(run(store, 'min:media_output').series[0]!.points[15]).toEqual([T0 + 15_000, 50]);
  });

  it('a period downsamples before the group: 10 s means, step 10 s', () => {
    const answer = run(twoStreams(), 'sum:10s-tavg8:media_output');
    expect(answer.step_ms).toBe(10_000);
    expect(answer.series[0]!.points).toEqual([
      [T0, 150],
      [T0 + 10_000, 350],
    ]);
  });

  it('savg averages the points present; tavg8 weighs each by the time it held, up to 8 steps', () => {
    // 10 at 0 s, then nothing until 100 at 4 s, in one 10 s period.
    const points: [number, number][] = [
      [0, 10],
      [4000, 100],
    ];
    expect(downsample(points, 10_000, 1000, 'savg').get(0)).toBe(55);
    // 10 held 4 s, 100 for its own second: (40 + 100) / 5.
    expect(downsample(points, 10_000, 1000, 'tavg8').get(0)).toBe(28);
    // A gap longer than 8 steps is not bridged: 10 holds 8 s only.
    const far: [number, number][] = [
      [0, 10],
      [20_000, 100],
    ];
    expect(downsample(far, 10_000, 1000, 'tavg8').get(0)).toBe(10);
    // At the resolution's own step: tavg8 holds the value over the empty steps, savg leaves them empty.
    expect([...downsample(points, 1000, 1000, 'tavg8')]).toEqual([
      [0, 10],
      [1000, 10],
      [2000, 10],
      [3000, 10],
      [4000, 100],
    ]);
    expect([...downsample(points, 1000, 1000, 'savg')]).toEqual(points);
  });

  it('a gap between measured points reads as null, so a chart breaks its line', () => {
    const store = new PulseStore();
    store.record('total_clients', {}, 1, T0);
    store.record('total_clients', {}, 2, T0 + 5000);
    const answer = runPulseQuery(store, parsePulseQuery('total_clients')!, {
      fromMs: T0,
      toMs: T0 + 10_000,
      nowMs: T0 + 10_000,
    });
    expect(answer.series[0]!.points).toEqual([
      [T0, 1],
      [T0 + 1000, null],
      [T0 + 5000, 2],
    ]);
  });
});
