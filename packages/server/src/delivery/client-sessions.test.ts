import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientSessions } from './client-sessions.js';

describe('ClientSessions per client address (max_sessions_per_ip)', () => {
  let sessions: ClientSessions;
  afterEach(() => sessions.stop());
  const viewer = (token: string, ip = '203.0.113.7') => ({
    stream: 'cam',
    type: 'hls' as const,
    ip,
    userAgent: 'player',
    token,
  });

  it('refuses a client cycling tokens with 429 past its open sessions, not another address or the admin', () => {
    sessions = new ClientSessions(20_000, { maxPerIp: () => 3 });
    for (const token of ['a', 'b', 'c']) expect(sessions.open(viewer(token), 0)).toHaveProperty('id');
    expect(sessions.open(viewer('d'), 1)).toEqual({
      refused: '203.0.113.7 has 3 sessions open already (max_sessions_per_ip)',
      status: 429,
    });
    // A request of a session already open is no new session: still served.
    expect(sessions.open(viewer('a'), 2)).toHaveProperty('id');
    expect(sessions.open(viewer('d', '198.51.100.1'), 3)).toHaveProperty('id');
    expect(sessions.open(viewer('admin'), 4, undefined, { exempt: true })).toHaveProperty('id');
    expect(sessions.totalClients()).toBe(5);
  });

  it('counts the sessions started in a minute too: closing them does not let a new token in at once', () => {
    sessions = new ClientSessions(20_000, { maxPerIp: () => 2 });
    const started = ['a', 'b'].map((token) => sessions.open(viewer(token), 1000));
    sessions.close(
      started.map((s) => ('id' in s ? s.id : '')),
      1000,
      false,
    );
    expect(sessions.open(viewer('c'), 30_000)).toEqual({
      refused: '203.0.113.7 started 2 sessions in the last minute (max_sessions_per_ip), try again later',
      status: 429,
    });
    expect(sessions.open(viewer('c'), 61_000)).toHaveProperty('id');
  });
});

describe('ClientSessions idle end (session_idle_seconds)', () => {
  afterEach(() => vi.useRealTimers());

  it('ends a quiet session after the idle time the config gives at the time, not a fixed 20 s', () => {
    vi.useFakeTimers();
    let idleMs = 20_000;
    const ended: string[] = [];
    const sessions = new ClientSessions(undefined, {
      idleMs: () => idleMs,
      onClose: (session) => ended.push(session.token ?? ''),
    });
    sessions.open(
      { stream: 'cam', type: 'hls', ip: '203.0.113.7', userAgent: 'player', token: 't' },
      Date.now(),
    );
    vi.advanceTimersByTime(3000);
    expect(ended).toEqual([]);
    // The operator shortens it: the next sweep ends the session, quiet for 3 s already.
    idleMs = 2000;
    vi.advanceTimersByTime(1000);
    expect(ended).toEqual(['t']);
    sessions.stop();
  });
});
