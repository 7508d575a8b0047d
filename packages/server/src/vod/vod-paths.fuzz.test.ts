import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { checkRelativePath, isInside, resolveInRoot } from './vod-paths.js';

/** Pieces of request paths, glued at random: names that exist, links planted out, tricks, junk. */
const piece = fc.oneof(
  fc.constantFrom(
    'shows',
    'a.mp4',
    'out',
    'out-file.mp4',
    'deep',
    'loop',
    'alias',
    'dangling',
    'new',
    '/',
    '//',
    '..',
    '.',
    '...',
    '%2e%2e',
    '%2E%2e',
    '%2f',
    '%252e',
    '%00',
    '\0',
    '\\',
    '\\..',
    '~',
    '\n',
    '/etc/passwd',
    '..%2f',
    '.%2e',
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const relPath = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));

describe('resolveInRoot under random and trick-built paths', () => {
  let base: string;
  let root: string;
  let rootReal: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sluice-vod-fuzz-'));
    root = join(base, 'root');
    const outside = join(base, 'outside');
    await mkdir(join(root, 'shows', 'deep'), { recursive: true });
    await mkdir(join(outside, 'shows'), { recursive: true });
    await writeFile(join(root, 'shows', 'a.mp4'), 'a');
    await writeFile(join(outside, 'a.mp4'), 'secret');
    // Links out of the root at several depths, a link to the root's parent, a cycle, a dangling one.
    await symlink(outside, join(root, 'out'));
    await symlink(join(outside, 'a.mp4'), join(root, 'out-file.mp4'));
    await symlink(outside, join(root, 'shows', 'deep', 'out'));
    await symlink('../../..', join(root, 'shows', 'deep', 'alias'));
    await symlink(base, join(root, 'shows', 'alias'));
    await symlink('loop', join(root, 'loop'));
    await symlink(join(outside, 'missing', 'x'), join(root, 'dangling'));
    await symlink(join(root, 'shows'), join(root, 'alias'));
    rootReal = await realpath(root);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  /** The real path of the deepest existing ancestor of `path` (which is absolute). */
  const deepestReal = async (path: string): Promise<string> => {
    for (let at = path; ; at = dirname(at)) {
      try {
        return await realpath(at);
      } catch {
        if (at === '/') return '/';
      }
    }
  };

  it('never resolves outside the root: refused with 400/403, or inside by real path', async () => {
    await fc.assert(
      fc.asyncProperty(relPath, async (rel) => {
        let resolved;
        try {
          resolved = await resolveInRoot(root, rel);
        } catch (error) {
          expect(error).toBeInstanceOf(HttpError);
          expect([400, 403]).toContain((error as HttpError).statusCode);
          return;
        }
        expect('parts' in checkRelativePath(rel)).toBe(true);
        expect(isInside(rootReal, resolved.path)).toBe(true);
        // Through the disk: its parent leads inside, and so does the entry when it exists.
        if (resolved.parts.length > 0)
          expect(isInside(rootReal, await deepestReal(dirname(resolved.path)))).toBe(true);
        const whole = await realpath(resolved.path).catch(() => undefined);
        if (whole !== undefined) expect(isInside(rootReal, whole)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses each planted link out, however it is reached', async () => {
    for (const rel of [
      'out',
      'out/a.mp4',
      'out-file.mp4',
      'shows/deep/out/shows',
      'shows/deep/alias',
      'shows/alias/outside/a.mp4',
      'alias/alias/outside',
      'loop',
    ])
      await expect(resolveInRoot(root, rel), rel).rejects.toBeInstanceOf(HttpError);
  });
});
