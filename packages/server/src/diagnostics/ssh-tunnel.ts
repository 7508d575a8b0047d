import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from '../support/log.js';

/** `[user@]host[:port]`, starting with a letter or digit: nothing ssh could read as an option. */
export const SUPPORT_SSH_PATTERN = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*@)?[A-Za-z0-9][A-Za-z0-9.-]*(?::\d{1,5})?$/;
/** What support reaches through the tunnel: this machine's sshd. */
const LOCAL_SSHD = '127.0.0.1:22';
/** The last stderr bytes kept for a failure's reason. */
const REASON_MAX_CHARS = 300;

export type TunnelState = 'unconfigured' | 'stopped' | 'starting' | 'running' | 'failed';

export interface TunnelStatus {
  state: TunnelState;
  /** The configured `support_ssh`, when there is one. */
  host?: string;
  /** The port the support host opened for us (`ssh -R 0:…` lets it choose). */
  remote_port?: number;
  /** Why it failed (ssh's last words), or why it can't start. */
  reason?: string;
}

/**
 * The support SSH access (spec 002 §2 Log upload): `ssh -N -R 0:127.0.0.1:22 [user@]host` to the
 * configured `support_ssh` host (Debian's openssh-client). Running once the host says which port it
 * allocated; failed with ssh's last stderr line when it exits unasked; stopped when disabled.
 */
export class SshTunnel {
  private child: ChildProcess | undefined;
  private status: Omit<TunnelStatus, 'host'> = { state: 'stopped' };

  constructor(
    private readonly host: () => string | undefined,
    private readonly log: Logger,
    private readonly sshPath = process.env.SLUICE_SSH ?? 'ssh',
  ) {}

  current(): TunnelStatus {
    const host = this.host();
    if (!host && !this.child)
      return { state: 'unconfigured', reason: 'no support_ssh host is set in the config' };
    return { ...this.status, ...(host ? { host } : {}) };
  }

  /** Starts the tunnel; answers once it runs or failed (or after `waitMs`, still starting). */
  async enable(waitMs = 15_000): Promise<TunnelStatus> {
    const host = this.host();
    if (!host) return this.current();
    if (this.child) return this.current();
    if (!SUPPORT_SSH_PATTERN.test(host)) {
      this.status = { state: 'failed', reason: `support_ssh '${host}' is not [user@]host[:port]` };
      return this.current();
    }
    const [destination = host, port] = host.split(/:(?=\d+$)/);
    const args = [
      '-N',
      '-T',
      '-o',
      'BatchMode=yes',
      '-o',
      'ExitOnForwardFailure=yes',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      'ServerAliveInterval=15',
      '-o',
      'ServerAliveCountMax=3',
      '-o',
      'ConnectTimeout=10',
      '-R',
      `0:${LOCAL_SSHD}`,
      ...(port ? ['-p', port] : []),
      destination,
    ];
    this.status = { state: 'starting' };
    this.log.notice(`support ssh: connecting to ${host}`);
    const child = spawn(this.sshPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let lastLine = '';
    const settled = new Promise<void>((resolve) => {
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        for (const line of text
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)) {
          const allocated = /Allocated port (\d+) for remote forward/.exec(line);
          if (allocated) {
            this.status = { state: 'running', remote_port: Number(allocated[1]) };
            this.log.notice(`support ssh: running, ${host} port ${allocated[1]} reaches this sshd`);
            resolve();
          } else lastLine = line.slice(-REASON_MAX_CHARS);
        }
      });
      child.on('error', (error) => {
        lastLine = `cannot run ssh: ${error.message}`;
      });
      child.on('close', (code, signal) => {
        if (this.child === child) this.child = undefined;
        if (this.status.state !== 'stopped') {
          const reason = lastLine || `ssh exited (${signal ?? `code ${code}`})`;
          this.status = { state: 'failed', reason };
          this.log.error(`support ssh: ${reason}`);
        }
        resolve();
      });
      setTimeout(resolve, waitMs).unref();
    });
    await settled;
    return this.current();
  }

  /** Ends the tunnel: stopped. */
  disable(): TunnelStatus {
    const child = this.child;
    this.status = { state: 'stopped' };
    if (child) {
      this.log.notice('support ssh: stopped');
      child.kill('SIGTERM');
    }
    return this.current();
  }
}
