import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The server's own support key and known hosts, kept beside the config. */
export interface SupportKeyFiles {
  /** The private key ssh is given (`-i`); its `.pub` is what support puts in authorized_keys. */
  keyPath: string;
  /** The support host's key, accepted on first use; apart from the server user's ~/.ssh. */
  knownHostsPath: string;
}

export function supportKeyFiles(dir: string): SupportKeyFiles {
  return {
    keyPath: join(dir, 'support_ssh_ed25519'),
    knownHostsPath: join(dir, 'support_ssh_known_hosts'),
  };
}

/**
 * The public half of the server's support key, made once with Debian's ssh-keygen (ed25519, no
 * passphrase: the tunnel opens unattended). Its own key rather than the server user's: the operator
 * hands support exactly this line, and revoking it revokes nothing else.
 */
export async function ensureSupportKey(files: SupportKeyFiles): Promise<string> {
  const publicPath = `${files.keyPath}.pub`;
  const existing = await readFile(publicPath, 'utf8').catch(() => undefined);
  if (existing) return existing.trim();
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'sluice-support', '-f', files.keyPath]);
  return (await readFile(publicPath, 'utf8')).trim();
}

/** The public key if it was made already (the status shows it), without making one. */
export async function readSupportKey(files: SupportKeyFiles): Promise<string | undefined> {
  const text = await readFile(`${files.keyPath}.pub`, 'utf8').catch(() => undefined);
  return text?.trim() || undefined;
}
