import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { childEnv, killLeftovers, ownerMark } from './leftovers.js';

describe('killLeftovers', () => {
  it('kills the children carrying this owner mark and leaves others alone', async () => {
    const mine = ownerMark(`/tmp/leftovers-${process.pid}.conf`);
    const other = ownerMark(`/tmp/other-${process.pid}.conf`);
    const orphan = spawn('sleep', ['60'], { detached: true, stdio: 'ignore', env: childEnv(mine) });
    const stranger = spawn('sleep', ['60'], { detached: true, stdio: 'ignore', env: childEnv(other) });
    const exited = new Promise((resolve) => orphan.once('exit', resolve));
    try {
      await vi.waitFor(() => expect(orphan.pid).toBeDefined());
      expect(await killLeftovers(mine)).toEqual([orphan.pid]);
      await exited;
      expect(stranger.exitCode).toBeNull();
    } finally {
      stranger.kill('SIGKILL');
      orphan.kill('SIGKILL');
    }
  });
});
