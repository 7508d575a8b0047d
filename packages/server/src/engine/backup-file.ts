import { statSync } from 'node:fs';

/**
 * Why a backup file:// URL can't play (no such file, not a file), or undefined when it can or is
 * not a file. Checked each time the backup is due, so a file put in place later plays then.
 */
export function missingBackupFile(url: string): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const path = decodeURIComponent(url.slice('file://'.length));
  try {
    if (!statSync(path).isFile()) return `backup ${path} is not a file`;
    return undefined;
  } catch {
    return `backup file ${path} does not exist`;
  }
}
