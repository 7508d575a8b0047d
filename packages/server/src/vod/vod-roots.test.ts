import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '@sluice/api';
import { VodRoots } from './vod-roots.js';

describe('VodRoots', () => {
  let base: string;
  let config: Config;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sluice-vod-roots-'));
    for (const dir of ['one', 'two', 'deep', 'outside']) await mkdir(join(base, dir));
    await writeFile(join(base, 'two', 'both.mp4'), 'two');
    await writeFile(join(base, 'one', 'both.mp4'), 'one');
    await writeFile(join(base, 'two', 'only-two.mp4'), 'two');
    await writeFile(join(base, 'outside', 'secret.mp4'), 'secret');
    await symlink(join(base, 'outside', 'secret.mp4'), join(base, 'one', 'secret.mp4'));
    config = {
      vods: {
        movies: {
          urls: [{ url: join(base, 'missing') }, { url: join(base, 'one') }, { url: `file://${base}/two` }],
        },
        'movies/kids': { urls: [{ url: join(base, 'deep') }], disabled: true },
        remote: { urls: [{ url: 'http://example.invalid/vod' }] },
      },
    };
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('finds a VOD by prefix with its roots in order and whether it is disabled', () => {
    const roots = new VodRoots(config);
    expect(roots.vod('movies')?.roots).toEqual([join(base, 'missing'), join(base, 'one'), join(base, 'two')]);
    expect(roots.vod('movies/kids')?.disabled).toBe(true);
    expect(roots.vod('movies')?.disabled).toBe(false);
    expect(roots.vod('nope')).toBeUndefined();
  });

  it('locates a file in the first root holding it, skipping a missing root', async () => {
    const roots = new VodRoots(config);
    expect(await roots.locate('movies', 'both.mp4')).toBe(join(base, 'one', 'both.mp4'));
    expect(await roots.locate('movies', 'only-two.mp4')).toBe(join(base, 'two', 'only-two.mp4'));
    expect(await roots.locate('movies', 'none.mp4')).toBeUndefined();
    expect(await roots.locate('other', 'both.mp4')).toBeUndefined();
  });

  it('refuses a link out of a root and a path trick instead of locating it', async () => {
    const roots = new VodRoots(config);
    await expect(roots.locate('movies', 'secret.mp4')).rejects.toMatchObject({ statusCode: 403 });
    await expect(roots.locate('movies', '../outside/secret.mp4')).rejects.toMatchObject({ statusCode: 400 });
  });

  it('picks a source path by number or by its url string', () => {
    const roots = new VodRoots(config);
    expect(roots.root('movies', '1').root).toBe(join(base, 'one'));
    expect(roots.root('movies', `file://${base}/two`).root).toBe(join(base, 'two'));
    expect(() => roots.root('movies', '7')).toThrow(/no source path '7'/);
    expect(() => roots.root('remote', '0')).toThrow(/not a local directory/);
    expect(() => roots.root('nope', '0')).toThrow(/no VOD location with prefix 'nope'/);
  });

  it('splits a name at the longest configured prefix', () => {
    const roots = new VodRoots(config);
    expect(roots.splitVodName('/movies/kids/cartoon.mp4')).toEqual({
      prefix: 'movies/kids',
      rest: 'cartoon.mp4',
    });
    expect(roots.splitVodName('movies/kids.mp4')).toEqual({ prefix: 'movies', rest: 'kids.mp4' });
    expect(roots.splitVodName('/movies/a/b.mp4')).toEqual({ prefix: 'movies', rest: 'a/b.mp4' });
    expect(roots.splitVodName('/movies/')).toBeUndefined();
    expect(roots.splitVodName('/moviesx/a.mp4')).toBeUndefined();
  });

  it('follows config updates', () => {
    const roots = new VodRoots(config);
    roots.update({ vods: { other: { urls: [{ url: '/srv' }] } } });
    expect(roots.prefixes()).toEqual(['other']);
  });
});
