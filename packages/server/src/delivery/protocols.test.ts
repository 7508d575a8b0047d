import { describe, expect, it } from 'vitest';
import { protocolAllowed } from './protocols.js';

describe('protocolAllowed', () => {
  it('serves everything by default, and nothing switched off', () => {
    expect(protocolAllowed(undefined, 'hls')).toBe(true);
    expect(protocolAllowed({ hls: false }, 'hls')).toBe(false);
    expect(protocolAllowed({ hls: false }, 'dash')).toBe(true);
  });

  it('serves only the protocols marked only, once one is', () => {
    expect(protocolAllowed({ hls: true, dash: false }, 'hls')).toBe(true);
    expect(protocolAllowed({ hls: true }, 'mpegts')).toBe(false);
  });
});
