import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './body-limits.js';

describe('nestedDeeperThan', () => {
  it('counts arrays and objects opened inside each other', () => {
    expect(nestedDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(nestedDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    expect(nestedDeeperThan('[[],[],[],[]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestedDeeperThan(JSON.stringify({ text: '[[[[[[{{{{' }), 1)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify({ text: 'say \\"[[[[" and "{{{{' }), 1)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify([{ a: '\\' }, [[[1]]]]), 3)).toBe(true);
  });

  it('answers for 100,000 opening brackets in a few milliseconds', () => {
    const started = performance.now();
    expect(nestedDeeperThan('['.repeat(100_000), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, MAX_JSON_DEPTH)).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('lets a real config through', () => {
    const config = {
      streams: {
        cam: { urls: [{ url: 'udp://239.0.0.1:1234', options: { priority: 1 } }], push: [{ url: 'x' }] },
      },
      transcoder: { video: [{ bitrate: 1000, size: { width: 640 } }] },
    };
    expect(nestedDeeperThan(JSON.stringify(config), MAX_JSON_DEPTH)).toBe(false);
  });
});
