import { link, mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** Keeps the last `limit` versions of the config file in a history folder beside it. */
export class ConfigHistory {
  private seq = 0;

  constructor(
    private readonly dir: string,
    private readonly configPath: string,
    private readonly limit = 50,
  ) {}

  /**
   * Keeps the version about to be replaced, then prunes the oldest beyond the limit. The file on
   * disk is hard-linked, not copied: the rename that follows gives the config path a new inode and
   * the history entry keeps the old one, at no cost whatever the size — and a hand edit not yet
   * loaded is kept as it was on disk. `text` is written instead where linking is not possible.
   */
  async keep(text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // A sortable name: timestamp, then a sequence number for saves within the same millisecond.
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const name = `${basename(this.configPath)}.${stamp}.${String(this.seq++ % 10000).padStart(4, '0')}`;
    await link(this.configPath, join(this.dir, name)).catch(() =>
      writeFile(join(this.dir, name), text, { mode: 0o600 }),
    );
    const files = (await readdir(this.dir))
      .filter((f) => f.startsWith(`${basename(this.configPath)}.`))
      .sort();
    for (const old of files.slice(0, Math.max(0, files.length - this.limit))) {
      await unlink(join(this.dir, old)).catch(() => undefined);
    }
  }

  async list(): Promise<string[]> {
    return (await readdir(this.dir).catch(() => [] as string[])).sort();
  }
}
