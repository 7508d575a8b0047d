import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private scratch folder for this run under the temp folder: `{prefix}-` and a random suffix,
 * made by mkdtemp (created new with mode 0700, never an existing path), so no other local user can
 * guess it in advance, plant a symlink there, or read what is written into it.
 *
 * Folders of earlier runs with the same prefix (a run killed before it could remove its own) are
 * removed first; the instance lock (config/instance-lock.ts) makes sure none of them is live.
 * Only real folders owned by this user are removed: a symlink or another user's folder named like
 * one is left alone (rm would remove a symlink itself, never its target, but nothing is assumed).
 */
export async function privateScratchDir(prefix: string, base = tmpdir()): Promise<string> {
  await removeEarlierRuns(prefix, base);
  return mkdtemp(join(base, `${prefix}-`));
}

async function removeEarlierRuns(prefix: string, base: string): Promise<void> {
  const names = await readdir(base).catch(() => [] as string[]);
  const uid = process.getuid?.();
  for (const name of names) {
    // `prefix` alone is the fixed folder of versions before this one.
    if (name !== prefix && !name.startsWith(`${prefix}-`)) continue;
    const path = join(base, name);
    const info = await lstat(path).catch(() => undefined);
    if (!info?.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
    await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}
