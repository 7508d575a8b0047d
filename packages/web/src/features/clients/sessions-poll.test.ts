import { describe, expect, it } from 'vitest';
import { LiveStore } from '../../api/live-store.js';
import type { LiveSync } from '../../api/live-sync.js';
import { type PollTimer, SessionsPoll, sessionsPollOf } from './sessions-poll.js';

/** A timer run by hand: tick() is one second passing. */
function manualTimer() {
  const running = new Map<number, () => void>();
  let next = 0;
  const timer: PollTimer = {
    setInterval: (run) => {
      running.set(++next, run);
      return next;
    },
    clearInterval: (handle) => running.delete(handle as number),
  };
  return { timer, tick: () => [...running.values()].forEach((run) => run()), running };
}

describe('SessionsPoll', () => {
  it('asks for a name at once and each second while it has users, and stops when the count reaches zero', () => {
    const sent: string[] = [];
    const clock = manualTimer();
    const poll = new SessionsPoll((c) => sent.push(c), clock.timer);

    const first = poll.subscribe('cam/1');
    expect(sent).toEqual(['sessions?name=cam%2F1']);
    const second = poll.subscribe('cam/1');
    expect(poll.count('cam/1')).toBe(2);
    // A second user shares the poll: no extra request, no second timer.
    expect(sent).toHaveLength(1);
    expect(clock.running.size).toBe(1);

    clock.tick();
    expect(sent).toEqual(['sessions?name=cam%2F1', 'sessions?name=cam%2F1']);

    first();
    first(); // a release called twice counts once
    expect(poll.count('cam/1')).toBe(1);
    clock.tick();
    expect(sent).toHaveLength(3);

    second();
    expect(poll.count('cam/1')).toBe(0);
    expect(poll.polling).toBe(false);
    expect(clock.running.size).toBe(0);
    clock.tick();
    expect(sent).toHaveLength(3);
  });

  it('polls each subscribed name every tick, and only those', () => {
    const sent: string[] = [];
    const clock = manualTimer();
    const poll = new SessionsPoll((c) => sent.push(c), clock.timer);
    const a = poll.subscribe('a');
    poll.subscribe('b');
    sent.length = 0;
    clock.tick();
    expect(sent).toEqual(['sessions?name=a', 'sessions?name=b']);
    a();
    sent.length = 0;
    clock.tick();
    expect(sent).toEqual(['sessions?name=b']);
  });

  it('asks again for every subscribed name as soon as the socket reconnects', () => {
    const sent: string[] = [];
    const store = new LiveStore();
    const sync = { store, connection: { send: (c: string) => sent.push(c) } } as unknown as LiveSync;
    const poll = sessionsPollOf(sync);
    expect(sessionsPollOf(sync)).toBe(poll);
    const release = poll.subscribe('cam');
    sent.length = 0;

    store.setConnection('offline');
    expect(sent).toEqual([]);
    store.setConnection('connected');
    expect(sent).toEqual(['sessions?name=cam']);

    release();
    store.setConnection('offline');
    store.setConnection('connected');
    expect(sent).toEqual(['sessions?name=cam']);
  });
});
