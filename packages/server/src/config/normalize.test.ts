import type { Config } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { normalizeConfig, touchedPositions } from './normalize.js';

const names = (config: Config) =>
  Object.values(config.streams ?? {})
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map((s) => s.name);

describe('normalizeConfig', () => {
  const three: Config = { streams: { a: { position: 0 }, b: { position: 1 }, c: { position: 2 } } };

  it('fills key fields and numbers positions in order', () => {
    const out = normalizeConfig({ streams: { x: {}, y: { position: 7 } }, lives: { l: {} } }, {});
    expect(out.streams).toEqual({ x: { name: 'x', position: 1 }, y: { name: 'y', position: 0 } });
    expect(out.lives).toEqual({ l: { prefix: 'l', position: 0 } });
  });

  it('moves a stream to the position the delta set and shifts the others', () => {
    const delta = { streams: { c: { position: 0 } } };
    const moved = normalizeConfig(
      { streams: { ...three.streams, c: { position: 0 } } },
      touchedPositions(delta),
    );
    expect(names(moved)).toEqual(['c', 'a', 'b']);
    const down = normalizeConfig(
      { streams: { ...three.streams, a: { position: 2 } } },
      touchedPositions({ streams: { a: { position: 2 } } }),
    );
    expect(names(down)).toEqual(['b', 'c', 'a']);
  });

  it('closes the gap a deleted item leaves and re-keys mirrors by position', () => {
    const out = normalizeConfig(
      {
        streams: { a: { position: 0 }, c: { position: 2 } },
        sources: { '0': { urls: ['http://o1'] }, '2': { urls: ['http://o3'] } },
      },
      {},
    );
    expect(names(out)).toEqual(['a', 'c']);
    expect(out.streams?.c?.position).toBe(1);
    expect(out.sources).toEqual({
      '0': { urls: ['http://o1'], position: 0 },
      '1': { urls: ['http://o3'], position: 1 },
    });
  });
});

describe('normalizeConfig when nothing moves', () => {
  it('keeps the untouched items and sections as they were, filling only the changed item', () => {
    const previous = normalizeConfig({ streams: { a: {}, b: {}, c: {} }, lives: { l: {} } }, {});
    const streams = { ...previous.streams, b: { title: 'B' } };
    const out = normalizeConfig({ ...previous, streams }, {}, previous, { streams: { b: { title: 'B' } } });
    expect(out.streams?.a).toBe(previous.streams?.a);
    expect(out.streams?.b).toEqual({ title: 'B', name: 'b', position: 1 });
    expect(out.lives).toBe(previous.lives);
  });

  it('still renumbers when an item is added or removed', () => {
    const previous = normalizeConfig({ streams: { a: {}, b: {}, c: {} } }, {});
    const { a: _a, ...rest } = previous.streams!;
    const out = normalizeConfig({ ...previous, streams: rest }, {}, previous);
    expect(out.streams?.b?.position).toBe(0);
    expect(out.streams?.c?.position).toBe(1);
  });
});
