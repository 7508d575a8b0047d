import { describe, expect, it } from 'vitest';
import { type Candidate, chooseCapturer, rendezvousOrder } from './rendezvous.js';

const servers = ['a:80', 'b:80', 'c:80'];
const live = (ids: string[], more: Partial<Record<string, Partial<Candidate>>> = {}): Candidate[] =>
  ids.map((id) => ({ id, overBandwidth: false, failing: false, capturing: false, ...more[id] }));

describe('rendezvous hashing', () => {
  it('every server computes the same order, whatever order it lists the servers in', () => {
    for (let i = 0; i < 50; i++) {
      const stream = `s${i}`;
      expect(rendezvousOrder(stream, servers)).toEqual(rendezvousOrder(stream, [...servers].reverse()));
    }
  });

  it('spreads streams over the servers and moves only the lost server’s streams', () => {
    const counts = new Map<string, number>();
    let moved = 0;
    for (let i = 0; i < 600; i++) {
      const stream = `stream-${i}`;
      const winner = chooseCapturer(stream, live(servers))!;
      counts.set(winner, (counts.get(winner) ?? 0) + 1);
      const after = chooseCapturer(stream, live(['a:80', 'c:80']))!;
      if (winner !== 'b:80') expect(after).toBe(winner);
      else moved++;
    }
    for (const id of servers) expect(counts.get(id)).toBeGreaterThan(120);
    expect(moved).toBe(counts.get('b:80'));
  });

  it('keeps a capturing server, skips failing and loaded ones, and falls back when all are', () => {
    const stream = 'news';
    const [top, second, third] = rendezvousOrder(stream, servers) as [string, string, string];
    expect(chooseCapturer(stream, live(servers))).toBe(top);
    expect(chooseCapturer(stream, live(servers, { [third]: { capturing: true } }))).toBe(third);
    // Two capture after a partition healed: the heavier keeps it.
    const both = live(servers, { [third]: { capturing: true }, [second]: { capturing: true } });
    expect(chooseCapturer(stream, both)).toBe(second);
    expect(chooseCapturer(stream, live(servers, { [top]: { failing: true } }))).toBe(second);
    expect(chooseCapturer(stream, live(servers, { [top]: { overBandwidth: true } }))).toBe(second);
    const loaded = live(servers, Object.fromEntries(servers.map((s) => [s, { overBandwidth: true }])));
    expect(chooseCapturer(stream, loaded)).toBe(top);
    const failing = live(servers, Object.fromEntries(servers.map((s) => [s, { failing: true }])));
    expect(chooseCapturer(stream, failing)).toBe(top);
    expect(chooseCapturer(stream, [])).toBeUndefined();
  });
});
