import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from '../support/log.js';
import { ensureSupportKey, type SupportKeyFiles } from './ssh-key.js';

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
  /** The port the support host opened for us to this sshd (`ssh -R 0:…` lets it choose). */
  remote_port?: number;
  /** The port the support host opened for us to this server's console (HTTP). */
  remote_console_port?: number;
  /** The server's support key: the line support puts in the tunnel user's authorized_keys. */
  public_key?: string;
  /** Why it failed (ssh's last words), or why it can't start. */
  reason?: string;
}

export interface TunnelOptions {
  /** The server's own key and known hosts (ssh-key.ts). */
  keyFiles: SupportKeyFiles;
  /** The console's HTTP port now, forwarded beside the sshd when there is one. */
  consolePort: () => number | undefined;
}

/**
 * The support SSH access (spec 002 §2 Log upload): `ssh -N -R 0:127.0.0.1:22 -R 0:127.0.0.1:<console>
 * [user@]host` to the configured `support_ssh` host (Debian's openssh-client) with the server's own
 * key. Running once the host says which ports it allocated; failed with ssh's last stderr line when
 * it exits unasked; stopped when disabled.
 */
export class SshTunnel {
  private child: ChildProcess | undefined;
  private status: Omit<TunnelStatus, 'host' | 'public_key'> = { state: 'stopped' };
  private publicKey: string | undefined;
  /** One ssh-keygen at a time: two status reads at once must not both make the key. */
  private making: Promise<string> | undefined;

  constructor(
    private readonly host: () => string | undefined,
    private readonly log: Logger,
    private readonly options: TunnelOptions,
    private readonly sshPath = process.env.SLUICE_SSH ?? 'ssh',
  ) {}

  current(): TunnelStatus {
    const host = this.host();
    if (!host && !this.child)
      return { state: 'unconfigured', reason: 'no support_ssh host is set in the config' };
    return {
      ...this.status,
      ...(host ? { host } : {}),
      ...(this.publicKey ? { public_key: this.publicKey } : {}),
    };
  }

  /**
   * The status with the server's public key once a support host is set, made if need be: support
   * installs the key before the first connection, so the console shows it before any enable.
   */
  async statusWithKey(): Promise<TunnelStatus> {
    if (this.host() && !this.publicKey) {
      try {
        await this.supportKey();
      } catch (error) {
        this.log.error(`support ssh: cannot make the support key: ${(error as Error).message}`);
      }
    }
    return this.current();
  }

  private async supportKey(): Promise<string> {
    this.making ??= ensureSupportKey(this.options.keyFiles).finally(() => (this.making = undefined));
    this.publicKey = await this.making;
    return this.publicKey;
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
    try {
      await this.supportKey();
    } catch (error) {
      this.status = { state: 'failed', reason: `cannot make the support key: ${(error as Error).message}` };
      return this.current();
    }
    if (this.child) return this.current();
    const consolePort = this.options.consolePort();
    const targets = [LOCAL_SSHD, ...(consolePort ? [`127.0.0.1:${consolePort}`] : [])];
    const args = [
      '-N',
      '-T',
      '-i',
      this.options.keyFiles.keyPath,
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      `UserKnownHostsFile=${this.options.keyFiles.knownHostsPath}`,
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
      ...targets.flatMap((target) => ['-R', `0:${target}`]),
      ...(port ? ['-p', port] : []),
      destination,
    ];
    this.status = { state: 'starting' };
    this.log.notice(`support ssh: connecting to ${host}`);
    const child = spawn(this.sshPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let lastLine = '';
    const ports: { remote_port?: number; remote_console_port?: number } = {};
    const settled = new Promise<void>((resolve) => {
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        for (const line of text
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)) {
          const allocated = /Allocated port (\d+) for remote forward to (\S+)/.exec(line);
          if (allocated) {
            const remote = Number(allocated[1]);
            ports[allocated[2] === LOCAL_SSHD ? 'remote_port' : 'remote_console_port'] = remote;
            this.log.notice(`support ssh: ${host} port ${remote} reaches ${allocated[2]}`);
            // Running once every forward has its port: each is what support will use.
            if (Object.keys(ports).length === targets.length) {
              this.status = { state: 'running', ...ports };
              resolve();
            }
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
