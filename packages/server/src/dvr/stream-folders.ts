import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Stream names may hold slashes (PREFIX/NAME): folders this deep are looked into, no deeper. */
const MAX_NAME_PARTS = 4;
const YEAR = /^\d{4}$/;

/**
 * The stream names that have an archive under `base`: folders (relative, `/`-joined) that hold a
 * year folder (layout.ts). Used at start for published and mirrored streams, which are not in the
 * config: their archives are readable before their publisher or origin comes back.
 */
export async function streamFoldersUnder(base: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (parts: string[]): Promise<void> => {
    if (parts.length > MAX_NAME_PARTS) return;
    const entries = await readdir(join(base, ...parts), { withFileTypes: true }).catch(() => []);
    const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.'));
    if (parts.length > 0 && folders.some((e) => YEAR.test(e.name))) found.push(parts.join('/'));
    for (const folder of folders) if (!YEAR.test(folder.name)) await walk([...parts, folder.name]);
  };
  await walk([]);
  return found.sort();
}
