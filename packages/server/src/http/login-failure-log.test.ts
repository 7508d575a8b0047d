import { describe, expect, it } from 'vitest';
import { LoginFailureLog } from './login-failure-log.js';

describe('LoginFailureLog', () => {
  const failure = (login: string) => ({
    login,
    address: '10.0.0.1',
    via: 'login form',
    addressFailures: 1,
    lockMs: 0,
  });

  it('writes one sanitised line per failure: a forged newline stays on its line', () => {
    const lines: string[] = [];
    new LoginFailureLog({ notice: (m) => lines.push(m) }).note(failure('admin\n2025 notice forged'));
    expect(lines).toEqual([
      'login failed for "admin\\n2025 notice forged" from 10.0.0.1 via login form (1 failures from this address)',
    ]);
  });

  it('writes at most 20 lines a minute and counts the rest in the next line', () => {
    let now = 0;
    const lines: string[] = [];
    const log = new LoginFailureLog({ notice: (m) => lines.push(m) }, () => now);
    for (let i = 0; i < 1000; i++) log.note(failure(`u${i}`));
    expect(lines).toHaveLength(20);
    now = 60_000;
    log.note(failure('late'));
    expect(lines[20]).toMatch(/"late".*\(980 earlier failures not logged\)$/);
  });
});
