import { describe, expect, it } from 'vitest';
import { pickByWeight } from './inserter-pick.js';

/**
 * A schedule file's `weight` (spec 002 §3) as the inserter uses it: how often the file is drawn
 * for a slot against the others. A fixed sequence of draws stands in for Math.random.
 */
describe("an ad schedule's file weights", () => {
  it('draws a file of weight 2 twice as often as one of weight 1', () => {
    const files = [
      { weight: 2, file: { name: 'a.mp4', durationMs: 10_000 } },
      { weight: 1, file: { name: 'b.mp4', durationMs: 10_000 } },
    ];
    const draws = 3000;
    let i = 0;
    // Evenly spread draws over [0, 1): the counts follow the weights exactly.
    const picked = pickByWeight(files, draws * 10_000, () => (i++ % draws) / draws);
    const count = (name: string) => picked.filter((f) => f.name === name).length;
    expect(picked).toHaveLength(draws);
    expect(count('a.mp4')).toBe(2000);
    expect(count('b.mp4')).toBe(1000);
  });

  it('fills the slot: as many ads as its duration takes', () => {
    const files = [{ weight: 1, file: { name: 'a.mp4', durationMs: 10_000 } }];
    expect(pickByWeight(files, 30_000)).toHaveLength(3);
  });
});
