import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from './harness.js';

const run = promisify(execFile);

export interface TestSshd {
  port: number;
  /** `user@127.0.0.1:port` as support_ssh takes it: the user this test runs as. */
  destination: string;
  /** The keys this sshd lets in (read at each login, so it can change while it runs). */
  authorize: (publicKey: string) => Promise<void>;
  log: () => Promise<string>;
  stop: () => Promise<void>;
}

/**
 * A real, unprivileged OpenSSH server (Debian's openssh-server) on an ephemeral 127.0.0.1 port with
 * its own host key, authorized_keys, pid and log files in a temp folder: the support host of the
 * SSH access, standing in for support's machine.
 */
export async function startTestSshd(): Promise<TestSshd> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-sshd-'));
  const port = await freePort();
  const hostKey = join(dir, 'host_ed25519');
  const authorizedKeys = join(dir, 'authorized_keys');
  const logPath = join(dir, 'sshd.log');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  await writeFile(authorizedKeys, '', { mode: 0o600 });
  const configPath = join(dir, 'sshd_config');
  await writeFile(
    configPath,
    [
      `ListenAddress 127.0.0.1:${port}`,
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorizedKeys}`,
      'UsePAM no',
      // The temp folder's modes are not what sshd asks of a home folder.
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding yes',
      'GatewayPorts no',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  // As root sshd wants its privilege separation folder (the Debian service makes it at boot).
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-f', configPath, '-E', logPath], {
    stdio: 'ignore',
  });
  const log = () => readFile(logPath, 'utf8').catch(() => '');
  await waitFor(async () => (await log()).includes('Server listening'), 15_000);
  return {
    port,
    destination: `${userInfo().username}@127.0.0.1:${port}`,
    authorize: (publicKey) => writeFile(authorizedKeys, `${publicKey}\n`, { mode: 0o600 }),
    log,
    stop: async () => {
      const closed = new Promise((resolve) => child.once('close', resolve));
      if (child.exitCode === null) child.kill('SIGTERM');
      await closed;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
