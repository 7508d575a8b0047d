import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { checkRelativePath, newNameProblem, resolveInRoot } from './vod-paths.js';

const refused = (rel: string) => {
  const check = checkRelativePath(rel);
  return 'error' in check ? check.error : undefined;
};

describe('checkRelativePath (lexical)', () => {
  it('takes plain relative paths, UTF-8 names and the root', () => {
    expect(checkRelativePath('')).toEqual({ parts: [] });
    expect(checkRelativePath('shows/2024/ep 1.mp4')).toEqual({ parts: ['shows', '2024', 'ep 1.mp4'] });
    expect(checkRelativePath('клипы/видео.mp4')).toEqual({ parts: ['клипы', 'видео.mp4'] });
    expect(checkRelativePath('100%.mp4')).toEqual({ parts: ['100%.mp4'] });
    expect(checkRelativePath('..hidden..name')).toEqual({ parts: ['..hidden..name'] });
  });

  it.each([
    ['..', "a '..' part"],
    ['a/../../etc/passwd', "a '..' part"],
    ['./a', "a '.' part"],
    ['/etc/passwd', 'absolute'],
    ['a//b', 'an empty part'],
    ['a/', 'an empty part'],
    ['a\\..\\b', 'backslash'],
    ['a\0b', 'NUL byte'],
    ['a\nb', 'control character'],
    ['%2e%2e/x', 'percent-escape'],
    ['a%2fb', 'percent-escape'],
    ['%252e', 'percent-escape'],
    [`${'x'.repeat(256)}`, 'longer than 255 bytes'],
    [`${'abc/'.repeat(600)}x`, 'longer than 2048 bytes'],
  ])('refuses %j (%s)', (rel, why) => {
    expect(refused(rel)).toContain(why);
  });
});

describe('newNameProblem', () => {
  it('refuses separators, dots, hidden names and takes plain ones', () => {
    expect(newNameProblem('movie.mp4')).toBeUndefined();
    expect(newNameProblem('a/b')).toContain("'/'");
    expect(newNameProblem('a\\b')).toContain('backslash');
    expect(newNameProblem('..')).toBeDefined();
    expect(newNameProblem('.hidden')).toContain("starts with a '.'");
    expect(newNameProblem('a\0')).toContain('NUL');
    expect(newNameProblem('')).toContain('empty');
  });
});

describe('resolveInRoot (on the disk)', () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sluice-vod-paths-'));
    root = join(base, 'root');
    outside = join(base, 'outside');
    await mkdir(join(root, 'shows'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.mp4'), 'secret');
    await writeFile(join(root, 'shows', 'a.mp4'), 'a');
    await symlink(outside, join(root, 'linked-out'));
    await symlink(join(outside, 'secret.mp4'), join(root, 'secret-link.mp4'));
    await symlink(join(root, 'shows'), join(root, 'shows-alias'));
    await symlink(join(root, 'shows', 'a.mp4'), join(root, 'a-alias.mp4'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const statusOf = async (rel: string) => {
    try {
      await resolveInRoot(root, rel);
      return 200;
    } catch (error) {
      if (error instanceof HttpError) return error.statusCode;
      throw error;
    }
  };

  it('resolves entries that are there and entries still to be made', async () => {
    expect((await resolveInRoot(root, 'shows/a.mp4')).path).toMatch(/\/root\/shows\/a\.mp4$/);
    expect((await resolveInRoot(root, 'shows/new/deeper.mp4')).path).toMatch(
      /\/root\/shows\/new\/deeper\.mp4$/,
    );
    expect((await resolveInRoot(root, '')).path).toMatch(/\/root$/);
  });

  it('follows links that stay inside the root, but not the last part (a link is itself)', async () => {
    expect((await resolveInRoot(root, 'shows-alias/a.mp4')).path).toMatch(/\/root\/shows\/a\.mp4$/);
    expect((await resolveInRoot(root, 'a-alias.mp4')).path).toMatch(/\/root\/a-alias\.mp4$/);
  });

  it('refuses links out of the root (403), a symlinked directory included, and bad paths (400)', async () => {
    expect(await statusOf('linked-out')).toBe(403);
    expect(await statusOf('linked-out/secret.mp4')).toBe(403);
    expect(await statusOf('linked-out/new-dir/new.mp4')).toBe(403);
    expect(await statusOf('secret-link.mp4')).toBe(403);
    expect(await statusOf('../outside/secret.mp4')).toBe(400);
    expect(await statusOf('/etc')).toBe(400);
  });

  it('answers 404 for a root that is not there', async () => {
    await expect(resolveInRoot(join(base, 'missing'), 'a.mp4')).rejects.toMatchObject({ statusCode: 404 });
  });
});
