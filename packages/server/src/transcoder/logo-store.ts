import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Uploaded logos (spec 001 §3 Logo, §7 logo calls): one file per logo in the `logos` folder beside
 * the config, named by the logo's name. A transcoder's logo path '@name' refers to one.
 */

/** Largest logo accepted: a corner picture, not a video frame store. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

/** Names are one plain file name: letters, digits, dot, dash, underscore, not starting with a dot. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

export const logoNameError = (name: string): string | undefined =>
  NAME.test(name)
    ? undefined
    : `bad logo name ${JSON.stringify(name)}: use up to 128 letters, digits, '.', '-' or '_', not starting with '.'`;

/** The picture types ffmpeg's overlay takes from a logo, known by their first bytes. */
export function imageType(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  if (bytes.subarray(0, 2).toString('latin1') === 'BM') return 'image/bmp';
  return undefined;
}

/** The file of a transcoder logo path: only '@name' of a valid name (no path into the rest of the disk). */
export function logoFileOf(dir: string | undefined, path: string): string | undefined {
  if (!dir || !path.startsWith('@')) return undefined;
  const name = path.slice(1);
  return logoNameError(name) ? undefined : join(dir, name);
}

export class LogoStore {
  constructor(readonly dir: string) {}

  async names(): Promise<string[]> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    return entries.filter((n) => !logoNameError(n)).sort();
  }

  /** The picture and its type, or undefined when there is no such logo. */
  async read(name: string): Promise<{ bytes: Buffer; type: string } | undefined> {
    const bytes = await readFile(join(this.dir, name)).catch(() => undefined);
    if (!bytes) return undefined;
    return { bytes, type: imageType(bytes) ?? 'application/octet-stream' };
  }

  /** Writes through a temp file and a rename, so a transcoder never reads half a picture. */
  async write(name: string, bytes: Buffer): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = join(this.dir, `.${name}.${process.pid}.tmp`);
    await writeFile(temp, bytes);
    await rename(temp, join(this.dir, name));
  }

  /** false when there was no such logo. */
  async remove(name: string): Promise<boolean> {
    try {
      await rm(join(this.dir, name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}

/** The logos' folder: `logos` in the data folder, next to the config file. */
export const logoDirOf = (configPath: string): string => join(dirname(configPath), 'logos');
