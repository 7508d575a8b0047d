import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
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

/**
 * A logo store call refused because a path is not a plain file or folder of its own: a symlink (or
 * a FIFO, a device) in the logos folder is never read, written or removed through, so a link
 * planted there can't serve, overwrite or delete a file elsewhere on the disk.
 */
export class LogoRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogoRefused';
  }
}

export class LogoStore {
  constructor(readonly dir: string) {}

  /** Plain files with a logo's name; links and anything else are not logos. */
  async names(): Promise<string[]> {
    if (!(await this.folderIsOwn())) return [];
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile() && !logoNameError(e.name))
      .map((e) => e.name)
      .sort();
  }

  /** The picture and its type, or undefined when there is no such logo. */
  async read(name: string): Promise<{ bytes: Buffer; type: string } | undefined> {
    const path = await this.fileOf(name);
    if (!(await this.folderIsOwn())) return undefined;
    let handle;
    try {
      // O_NOFOLLOW: a link is refused by the kernel (ELOOP) between any check and the open;
      // O_NONBLOCK: a FIFO planted under the name can't hang the open.
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP') throw refusedLink(path);
      throw error;
    }
    try {
      if (!(await handle.stat()).isFile())
        throw new LogoRefused(`${path} is not a plain file; it is not read`);
      const bytes = await handle.readFile();
      return { bytes, type: imageType(bytes) ?? 'application/octet-stream' };
    } finally {
      await handle.close();
    }
  }

  /** Writes through a temp file and a rename, so a transcoder never reads half a picture. */
  async write(name: string, bytes: Buffer): Promise<void> {
    const path = await this.fileOf(name);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.requireOwnFolder();
    await this.requireNoLink(path);
    // A new temp file of a random name, opened exclusively: 'wx' (O_CREAT|O_EXCL) never opens an
    // existing file or follows a link planted at the name.
    const temp = join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    await rename(temp, path).catch(async (error: unknown) => {
      await rm(temp, { force: true });
      throw error;
    });
  }

  /** false when there was no such logo. */
  async remove(name: string): Promise<boolean> {
    const path = await this.fileOf(name);
    if (!(await this.folderIsOwn())) return false;
    const info = await lstat(path).catch(() => undefined);
    if (!info) return false;
    if (info.isSymbolicLink()) throw refusedLink(path);
    if (!info.isFile()) throw new LogoRefused(`${path} is not a plain file; it was not removed`);
    try {
      await rm(path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** The file of a logo: a valid name only, so it can't leave the folder (the handlers check first). */
  private async fileOf(name: string): Promise<string> {
    const error = logoNameError(name);
    if (error) throw new LogoRefused(error);
    return join(this.dir, name);
  }

  /** true when the folder is a real folder; false when it doesn't exist yet; refused when a link. */
  private async folderIsOwn(): Promise<boolean> {
    const info = await lstat(this.dir).catch(() => undefined);
    if (!info) return false;
    if (info.isSymbolicLink()) throw refusedLink(this.dir);
    if (!info.isDirectory()) throw new LogoRefused(`${this.dir} is not a folder`);
    return true;
  }

  private async requireOwnFolder(): Promise<void> {
    if (!(await this.folderIsOwn())) throw new LogoRefused(`${this.dir} could not be made`);
  }

  private async requireNoLink(path: string): Promise<void> {
    const info = await lstat(path).catch(() => undefined);
    if (info?.isSymbolicLink()) throw refusedLink(path);
    if (info && !info.isFile()) throw new LogoRefused(`${path} is not a plain file; nothing was stored`);
  }
}

const refusedLink = (path: string) =>
  new LogoRefused(`${path} is a symbolic link: logos are plain files in the logos folder; nothing was done`);

/** The logos' folder: `logos` in the data folder, next to the config file. */
export const logoDirOf = (configPath: string): string => join(dirname(configPath), 'logos');
