import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogoRefused, LogoStore } from './logo-store.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** The logo store never reads, writes or deletes through a symbolic link (issue 13, Low). */
describe('logo store and symbolic links', () => {
  let base: string;
  let logos: string;
  let outside: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'logo-links-'));
    logos = join(base, 'logos');
    outside = join(base, 'secret.conf');
    await mkdir(logos);
    await writeFile(outside, 'edit_auth admin hunter2;\n');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('does not serve a file outside the folder through a link, nor list the link', async () => {
    await symlink(outside, join(logos, 'corner.png'));
    const store = new LogoStore(logos);
    await expect(store.read('corner.png')).rejects.toBeInstanceOf(LogoRefused);
    expect(await store.names()).toEqual([]);
  });

  it('does not overwrite or delete a file outside through a link', async () => {
    await symlink(outside, join(logos, 'corner.png'));
    const store = new LogoStore(logos);
    await expect(store.write('corner.png', PNG)).rejects.toThrow(/symbolic link/);
    await expect(store.remove('corner.png')).rejects.toThrow(/symbolic link/);
    expect(await readFile(outside, 'utf8')).toBe('edit_auth admin hunter2;\n');
    expect((await lstat(join(logos, 'corner.png'))).isSymbolicLink()).toBe(true);
  });

  it('refuses a logos folder that is itself a link', async () => {
    const elsewhere = join(base, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'a.png'), PNG);
    await rm(logos, { recursive: true });
    await symlink(elsewhere, logos);
    const store = new LogoStore(logos);
    await expect(store.read('a.png')).rejects.toThrow(/symbolic link/);
    await expect(store.write('b.png', PNG)).rejects.toThrow(/symbolic link/);
    await expect(store.remove('a.png')).rejects.toThrow(/symbolic link/);
    expect(existsSync(join(elsewhere, 'a.png'))).toBe(true);
    expect(existsSync(join(elsewhere, 'b.png'))).toBe(false);
  });

  it('does not hang on a FIFO under a logo name', async () => {
    execFileSync('mkfifo', [join(logos, 'pipe.png')]);
    await expect(new LogoStore(logos).read('pipe.png')).rejects.toThrow(/not a plain file/);
  });

  it('refuses names that leave the folder, and still stores, reads and removes plain logos', async () => {
    const store = new LogoStore(logos);
    await expect(store.read('../secret.conf')).rejects.toThrow(/bad logo name/);
    await expect(store.write('../x.png', PNG)).rejects.toThrow(/bad logo name/);
    await expect(store.remove('../secret.conf')).rejects.toThrow(/bad logo name/);
    await store.write('ok.png', PNG);
    expect(await store.names()).toEqual(['ok.png']);
    expect((await store.read('ok.png'))?.type).toBe('image/png');
    expect(await store.remove('ok.png')).toBe(true);
    expect(existsSync(outside)).toBe(true);
  });
});
