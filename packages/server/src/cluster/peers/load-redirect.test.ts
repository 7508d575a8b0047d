import { describe, expect, it } from 'vitest';
import type { PeerState } from './peer-directory.js';
import { leastLoaded } from './load-redirect.js';

const peer = (name: string, usage: number | undefined, streams: string[], more: Partial<PeerState> = {}) =>
  ({
    name,
    host: name,
    port: 80,
    self: false,
    reachable: true,
    error: null,
    streams: streams.map((s) => ({ name: s, alive: true })),
    streamNames: new Set(streams),
    figures: { ports: { http: 80 }, ...(usage === undefined ? {} : { bandwidth_usage: usage }) },
    ...more,
  }) as PeerState;

describe('leastLoaded: where an overloaded server sends a new viewer', () => {
  it('the answering peer with the stream and the lowest load under 100 %', () => {
    const peers = [
      peer('full', 120, ['s']),
      peer('busy', 70, ['s']),
      peer('calm', 20, ['s']),
      peer('idle-without-it', 0, ['other']),
      peer('down', 0, ['s'], { reachable: false }),
      peer('me', 0, ['s'], { self: true }),
    ];
    expect(leastLoaded(peers, 's')?.name).toBe('calm');
    // No total_bandwidth on a peer: counted as 0 %.
    expect(leastLoaded([...peers, peer('unlimited', undefined, ['s'])], 's')?.name).toBe('unlimited');
    expect(leastLoaded(peers, 'nowhere')).toBeUndefined();
    expect(leastLoaded([peer('full', 100, ['s'])], 's')).toBeUndefined();
  });
});
