import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

describe('LoginThrottle', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('lets five failures through, then locks the address for 1 s, 2 s, 4 s…', () => {
    const time = clock();
    const throttle = new LoginThrottle({}, time.now);
    for (let i = 0; i < 4; i++) expect(throttle.fail('10.0.0.1', 'admin').lockMs).toBe(0);
    expect(throttle.fail('10.0.0.1', 'admin').lockMs).toBe(1000);
    expect(throttle.waitMs('10.0.0.1', 'admin')).toBe(1000);
    time.advance(1000);
    expect(throttle.waitMs('10.0.0.1', 'admin')).toBe(0);
    expect(throttle.fail('10.0.0.1', 'admin').lockMs).toBe(2000);
    time.advance(2000);
    expect(throttle.fail('10.0.0.1', 'admin').lockMs).toBe(4000);
  });

  it('caps the address lock at 15 minutes and forgets failures after an hour', () => {
    const time = clock();
    const throttle = new LoginThrottle({}, time.now);
    let lockMs = 0;
    for (let i = 0; i < 40; i++) lockMs = throttle.fail('10.0.0.1', `x${i}`).lockMs;
    expect(lockMs).toBe(15 * 60_000);
    time.advance(3600_000 + 1);
    expect(throttle.fail('10.0.0.1', 'y').lockMs).toBe(0);
  });

  it('locks a login guessed from many addresses for at most 30 s, but not for an address that logged in before', () => {
    const time = clock();
    const throttle = new LoginThrottle({}, time.now);
    throttle.succeed('10.0.0.9', 'admin');
    let lockMs = 0;
    for (let i = 0; i < 60; i++) lockMs = throttle.fail(`10.1.0.${i}`, 'admin').lockMs;
    expect(lockMs).toBe(30_000);
    expect(throttle.waitMs('10.2.0.1', 'admin')).toBe(30_000);
    expect(throttle.waitMs('10.0.0.9', 'admin')).toBe(0);
    expect(throttle.waitMs('10.2.0.1', 'operator')).toBe(0);
  });

  it('a success clears the address', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 4; i++) throttle.fail('10.0.0.1', 'admin');
    throttle.succeed('10.0.0.1', 'admin');
    expect(throttle.fail('10.0.0.1', 'admin').lockMs).toBe(0);
  });
});
