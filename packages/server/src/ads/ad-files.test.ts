import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Config } from '@sluice/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside } from '../vod/vod-paths.js';
import { resolveAdFile } from './ad-files.js';

let base: string;
let root: string;
let second: string;
let config: Config;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'sluice-ad-files-')));
  root = join(base, 'root');
  second = join(base, 'second');
  const outside = join(base, 'outside');
  await mkdir(join(root, 'ads', 'deep'), { recursive: true });
  await mkdir(second, { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(root, 'ads', 'spot.mp4'), 'a');
  await writeFile(join(root, 'ads', 'SPOT2.MOV'), 'b');
  await writeFile(join(root, 'ads', 'notes.txt'), 'c');
  await writeFile(join(second, 'only-here.m4v'), 'd');
  await writeFile(join(outside, 'secret.mp4'), 'secret');
  await symlink(outside, join(root, 'out'));
  await symlink(join(outside, 'secret.mp4'), join(root, 'ads', 'linked.mp4'));
  await symlink(join(root, 'ads', 'spot.mp4'), join(root, 'inner-link.mp4'));
  config = {
    vods: {
      vod: { urls: [{ url: root }, { url: `file://${second}` }] },
      off: { urls: [{ url: root }], disabled: true },
    },
  } as unknown as Config;
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveAdFile', () => {
  it('finds a schedule file through its VOD location, in the location folders in order', () => {
    expect(resolveAdFile(config, 'vod/ads/spot.mp4')).toEqual({ path: join(root, 'ads', 'spot.mp4') });
    expect(resolveAdFile(config, 'vod/ads/SPOT2.MOV')).toEqual({ path: join(root, 'ads', 'SPOT2.MOV') });
    expect(resolveAdFile(config, 'vod/only-here.m4v')).toEqual({ path: join(second, 'only-here.m4v') });
    // A link that stays inside the folder is fine.
    expect(resolveAdFile(config, 'vod/inner-link.mp4')).toEqual({ path: join(root, 'ads', 'spot.mp4') });
  });

  it('refuses what is no ad video, no location, a disabled location or missing, naming the file', () => {
    expect(resolveAdFile(config, 'vod/ads/notes.txt')).toEqual({
      error: expect.stringMatching(/not a video file/),
    });
    expect(resolveAdFile(config, 'nope/ads/spot.mp4')).toEqual({
      error: expect.stringMatching(/no VOD location/),
    });
    expect(resolveAdFile(config, 'off/ads/spot.mp4')).toEqual({ error: expect.stringMatching(/disabled/) });
    const missing = resolveAdFile(config, 'vod/ads/gone.mp4');
    expect(missing).toEqual({ error: expect.stringMatching(/not found/) });
    expect(JSON.stringify(missing)).not.toContain(root);
  });

  it('never leaves the location folder: .., absolute, encoded, NUL, links out', () => {
    for (const name of [
      'vod/../outside/secret.mp4',
      'vod/ads/../../outside/secret.mp4',
      'vod//etc/secret.mp4',
      '/vod/%2e%2e/outside/secret.mp4',
      'vod/%2e%2e%2foutside/secret.mp4',
      'vod/ads/spot.mp4\0.mp4',
      'vod/out/secret.mp4',
      'vod/ads/linked.mp4',
      'vod/ads\\..\\secret.mp4',
    ])
      expect(resolveAdFile(config, name), name).toHaveProperty('error');
  });

  it('any name at all resolves inside a location folder or is refused (10^4 fuzzed names)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'vod',
        'vod/',
        'ads',
        'ads/',
        'out/',
        'spot.mp4',
        'secret.mp4',
        'linked.mp4',
        '/',
        '//',
      ),
      fc.constantFrom('..', '../', '.', '%2e%2e', '%2E%2e/', '%2f', '%252e', '%00', '\0', '\\', '..\\', '~'),
      fc.constantFrom('.mp4', '.MOV', '.3gp', '.mp4a', root, `file://${root}`, '\n', '/etc/passwd'),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
    );
    const name = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(name, (n) => {
        const answer = resolveAdFile(config, n);
        if ('path' in answer) {
          expect(isInside(root, answer.path) || isInside(second, answer.path)).toBe(true);
          expect(answer.path.endsWith('secret.mp4')).toBe(false);
        } else expect(typeof answer.error).toBe('string');
      }),
      { numRuns: 10_000 },
    );
  });
});
