import { describe, expect, it } from 'vitest';
import { NegotiationLimit } from './negotiation-limit.js';

describe('NegotiationLimit', () => {
  it('refuses the attempt past the per-address cap, and takes it again once one is released', () => {
    const limit = new NegotiationLimit(2, 10);
    const first = limit.enter('10.0.0.1');
    const second = limit.enter('10.0.0.1');
    expect(limit.enter('10.0.0.1')).toEqual({
      refused: 'too many WebRTC publishes being set up from 10.0.0.1 (at most 2 at once)',
    });
    // Another address is not held back by the first one's attempts.
    expect(typeof limit.enter('10.0.0.2')).toBe('function');
    if (typeof first !== 'function' || typeof second !== 'function') throw new Error('refused');
    first();
    first();
    expect(limit.count('10.0.0.1')).toBe(1);
    expect(typeof limit.enter('10.0.0.1')).toBe('function');
  });

  it('refuses past the overall cap whatever the address, and forgets released addresses', () => {
    const limit = new NegotiationLimit(4, 3);
    const releases = ['a', 'b', 'c'].map((ip) => limit.enter(ip));
    expect(limit.enter('d')).toEqual({
      refused: 'too many WebRTC publishes being set up (at most 3 at once), try again shortly',
    });
    for (const release of releases) if (typeof release === 'function') release();
    expect(limit.count()).toBe(0);
    expect(limit.count('a')).toBe(0);
  });
});
