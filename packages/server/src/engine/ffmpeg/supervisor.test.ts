import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ProcessState, Supervisor, type SupervisorOptions } from './supervisor.js';

const fake = join(dirname(fileURLToPath(import.meta.url)), 'testdata', 'fake-ffmpeg.mjs');
const running: Supervisor[] = [];

function supervise(args: string[], options: Partial<SupervisorOptions> = {}) {
  const states: ProcessState[] = [];
  let bytes = 0;
  const supervisor = new Supervisor({
    binary: fake,
    args,
    onStdout: (chunk) => (bytes += chunk.length),
    onStateChange: (to) => states.push(to),
    restartDelayMs: 50,
    ...options,
  });
  running.push(supervisor);
  return { supervisor, states, bytes: () => bytes };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

describe('Supervisor', () => {
  it('runs the child, passes its stdout on, and stops it with SIGINT', async () => {
    const { supervisor, states, bytes } = supervise(['--out-every', '10']);
    supervisor.start();
    await vi.waitFor(() => expect(bytes()).toBeGreaterThan(188 * 3), { timeout: 5000 });
    expect(supervisor.state).toBe('running');
    await supervisor.stop();
    expect(states).toEqual(['starting', 'running', 'finishing', 'finished']);
    expect(supervisor.status().order).toBe('stop');
  });

  it('escalates to SIGKILL when the child ignores SIGINT', async () => {
    const { supervisor, states, bytes } = supervise(['--ignore-sigint', '--out-every', '20'], {
      stopTimeoutMs: 300,
    });
    supervisor.start();
    // The child installs its SIGINT handler before it writes: a packet means it is in place.
    await vi.waitFor(() => expect(bytes()).toBeGreaterThan(0), { timeout: 5000 });
    const started = Date.now();
    await supervisor.stop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(states.at(-1)).toBe('killed');
  });

  it('restarts a failing child with a doubling delay and keeps its last line as the error', async () => {
    const delays: number[] = [];
    const { supervisor } = supervise(
      ['--stderr', 'Connection refused\\n', '--exit-after', '10', '--code', '1'],
      {
        onStateChange: (to) => {
          if (to === 'failed') delays.push(supervisor.status().restartAt! - Date.now());
        },
      },
    );
    supervisor.start();
    await vi.waitFor(() => expect(delays.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(delays[0]).toBeGreaterThan(30);
    expect(delays[0]).toBeLessThanOrEqual(50);
    expect(delays[1]).toBeGreaterThan(80);
    expect(delays[1]).toBeLessThanOrEqual(100);
    expect(delays[2]).toBeGreaterThan(180);
    expect(delays[2]).toBeLessThanOrEqual(200);
    expect(supervisor.status().lastError).toBe('exited with code 1: Connection refused');
    expect(supervisor.status().restarts).toBeGreaterThanOrEqual(2);
  });

  it('kills and restarts a child whose output went stale', async () => {
    const { supervisor, states } = supervise(['--out-every', '10', '--silent-after', '200'], {
      staleTimeoutMs: 300,
    });
    supervisor.start();
    await vi.waitFor(() => expect(states).toContain('killed'), { timeout: 5000 });
    expect(supervisor.status().lastError).toBe('no output for 0.3 s');
    await vi.waitFor(() => expect(supervisor.status().restarts).toBe(1), { timeout: 5000 });
  });

  it('splits stderr on \\r and \\n into a bounded log', async () => {
    const lines: string[] = [];
    const { supervisor } = supervise(['--stderr', 'one\\rtwo\\nthree\\r\\nfour\\n', '--out-every', '50'], {
      onLine: (line) => lines.push(line),
      logLines: 3,
    });
    supervisor.start();
    await vi.waitFor(() => expect(lines).toContain('four'), { timeout: 5000 });
    expect(lines).toEqual(['one', 'two', 'three', 'four']);
    expect(supervisor.log.all).toEqual(['two', 'three', 'four']);
  });

  it('reports a binary that does not exist and keeps retrying', async () => {
    const { supervisor, states } = supervise([], { binary: '/nonexistent/ffmpeg' });
    supervisor.start();
    await vi.waitFor(() => expect(supervisor.status().restarts).toBeGreaterThanOrEqual(1), { timeout: 5000 });
    expect(states).toContain('failed');
    expect(supervisor.status().lastError).toMatch(
      /^can't run \/nonexistent\/ffmpeg: spawn \/nonexistent\/ffmpeg ENOENT/,
    );
  });

  it('kills the whole process group, grandchildren included', async () => {
    const lines: string[] = [];
    const { supervisor } = supervise(['--grandchild', '--out-every', '50'], { onLine: (l) => lines.push(l) });
    supervisor.start();
    const line = await vi.waitFor(
      () => {
        const found = lines.find((l) => l.startsWith('grandchild '));
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 5000 },
    );
    const pid = Number(line.split(' ')[1]);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'latin1')).toContain('sleep');
    await supervisor.stop();
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 5000 });
  });

  it('does not restart after stop, even with a restart pending', async () => {
    const { supervisor, states } = supervise(['--exit-after', '10'], { restartDelayMs: 200 });
    supervisor.start();
    await vi.waitFor(() => expect(states).toContain('failed'), { timeout: 5000 });
    expect(supervisor.status().restartAt).toBeDefined();
    await supervisor.stop();
    expect(supervisor.status()).toMatchObject({ order: 'stop', restartAt: undefined, pid: undefined });
  });
});
