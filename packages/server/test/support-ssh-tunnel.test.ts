import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { startTestSshd, type TestSshd } from './sshd-helper.js';

interface Status {
  state: string;
  reason?: string;
  remote_port?: number;
  remote_console_port?: number;
  public_key?: string;
}

/**
 * The support SSH access for real: the server's ssh opens `-R` forwards on a real sshd (the support
 * host) and support's side of the tunnel reaches this server's console.
 */
describe('Log upload: the support SSH tunnel to a real sshd', () => {
  let sshd: TestSshd;
  let server: RunningServer;
  beforeAll(async () => {
    sshd = await startTestSshd();
    server = await startServer({ config: `${minimalConfig}support_ssh ${sshd.destination};\n` });
  });
  afterAll(async () => {
    await server?.cleanup();
    await sshd?.stop();
  });

  const call = async (action: string): Promise<Status> => {
    const answer = await server.api(
      `/flussonic/api/${action}`,
      action.startsWith('ssh') ? {} : { method: 'POST' },
    );
    expect(answer.status).toBe(200);
    return (await answer.json()) as Status;
  };
  /** The console, asked on support's side of the tunnel. */
  const throughTunnel = (port: number) =>
    fetch(`http://127.0.0.1:${port}/flussonic/api/ssh_agent_enabled`, {
      headers: { authorization: basicAuth() },
    });

  it('is refused until support has the server key, then runs and carries HTTP to the console, and closes when stopped', async () => {
    // The key is shown before any enable: support installs it before the first connection.
    const before = await call('ssh_agent_enabled');
    expect(before.state).toBe('stopped');
    expect(before.public_key).toMatch(/^ssh-ed25519 \S+ sluice-support$/);
    // Support has not installed the key yet: sshd refuses it, and the page shows the key to send.
    const refused = await call('enable_ssh_agent');
    expect(refused.state).toBe('failed');
    expect(refused.reason).toMatch(/permission denied/i);
    expect(refused.public_key).toBe(before.public_key);

    await sshd.authorize(refused.public_key!);
    const running = await call('enable_ssh_agent');
    expect(running).toMatchObject({ state: 'running', public_key: refused.public_key });
    expect(running.remote_port).toBeGreaterThan(0);
    expect(running.remote_console_port).toBeGreaterThan(0);
    expect(await call('ssh_agent_enabled')).toMatchObject({ state: 'running' });
    expect(await sshd.log()).toMatch(/Accepted publickey/);

    // A real request on the sshd's side reaches this server's console through the tunnel.
    const answer = await throughTunnel(running.remote_console_port!);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ state: 'running', remote_port: running.remote_port });

    expect(await call('disable_ssh_agent')).toMatchObject({ state: 'stopped' });
    expect(await call('ssh_agent_enabled')).toMatchObject({ state: 'stopped' });
    // The forwarded port closes on the sshd's side once ssh is gone.
    await waitFor(() =>
      throughTunnel(running.remote_console_port!).then(
        () => false,
        () => true,
      ),
    );
  });
});
