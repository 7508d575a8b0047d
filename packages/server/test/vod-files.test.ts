import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './harness.js';
import { API, query, snapshot, upload, viewAuth, vodConfig } from './vod-files-helpers.js';

interface Entry {
  name: string;
  type: string;
  prefix: string;
  size?: number;
  mtime: number;
}

describe('VOD files API: list, make_dir, remove, upload', () => {
  let server: RunningServer;
  let base: string;
  let root: string;
  let second: string;
  let outside: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sluice-vod-files-'));
    root = join(base, 'root');
    second = join(base, 'second');
    outside = join(base, 'outside');
    await mkdir(join(root, 'shows'), { recursive: true });
    await mkdir(second);
    await mkdir(join(outside, 'inner'), { recursive: true });
    await writeFile(join(outside, 'secret.mp4'), 'secret');
    await writeFile(join(root, 'b.mp4'), 'bbbb');
    await writeFile(join(root, 'a.mp4'), 'aa');
    await writeFile(join(root, 'shows', 'ep1.mp4'), 'ep1');
    await writeFile(join(root, '.a.mp4.upload-0123456789abcdef'), 'partial');
    await writeFile(join(second, 'other.mkv'), 'other');
    await symlink(outside, join(root, 'out'));
    await symlink(join(outside, 'secret.mp4'), join(root, 'out-file.mp4'));
    await symlink(join(root, 'shows'), join(root, 'shows-alias'));
    server = await startServer({ config: vodConfig([root, second]) });
  });
  afterAll(async () => {
    await server.cleanup();
    await rm(base, { recursive: true, force: true });
  });

  const list = async (params: Record<string, string>, authorization?: string) => {
    const answer = await server.api(`${API}/list_files?${query(params)}`, {
      headers: authorization ? { authorization } : {},
    });
    return { status: answer.status, body: (await answer.json()) as { files?: Entry[]; error?: string } };
  };
  const post = async (call: string, params: Record<string, string>, authorization?: string) => {
    const answer = await server.api(`${API}/${call}?${query(params)}`, {
      method: 'POST',
      headers: authorization ? { authorization } : {},
    });
    return { status: answer.status, body: (await answer.json()) as { error?: string } };
  };

  it('lists a directory sorted by name, without upload temp files or links out of the root', async () => {
    const { status, body } = await list({ prefix: 'vod', path: '0', subpath: '' });
    expect(status).toBe(200);
    const names = body.files!.map((f) => `${f.name}:${f.type}`);
    expect(names).toEqual(['a.mp4:file', 'b.mp4:file', 'shows:directory', 'shows-alias:directory']);
    const a = body.files!.find((f) => f.name === 'a.mp4')!;
    expect(a).toMatchObject({ prefix: 'vod', size: 2 });
    expect(Math.abs(a.mtime - Date.now() / 1000)).toBeLessThan(600);
    expect(
      (await list({ prefix: 'vod', path: '0', subpath: 'shows' })).body.files!.map((f) => f.name),
    ).toEqual(['ep1.mp4']);
    // The second source path, by number and by its url string.
    expect((await list({ prefix: 'vod', path: '1', subpath: '' })).body.files!.map((f) => f.name)).toEqual([
      'other.mkv',
    ]);
    expect((await list({ prefix: 'vod', path: second, subpath: '' })).body.files!.map((f) => f.name)).toEqual(
      ['other.mkv'],
    );
  });

  it('answers a clear 4xx for an unknown VOD, source path or directory', async () => {
    expect(await list({ prefix: 'nope', path: '0', subpath: '' })).toMatchObject({
      status: 404,
      body: { error: "no VOD location with prefix 'nope'" },
    });
    expect((await list({ prefix: 'vod', path: '5', subpath: '' })).status).toBe(404);
    expect((await list({ prefix: 'vod', path: '0', subpath: 'missing' })).status).toBe(404);
    expect((await list({ prefix: 'vod', path: '0', subpath: 'a.mp4' })).status).toBe(400);
  });

  it('makes a directory once; the second time it says the name is taken', async () => {
    expect((await post('make_dir', { prefix: 'vod', path: '0', subpath: 'shows/season 2' })).status).toBe(
      200,
    );
    expect((await list({ prefix: 'vod', path: '0', subpath: 'shows' })).body.files).toContainEqual(
      expect.objectContaining({ name: 'season 2', type: 'directory' }),
    );
    expect(await post('make_dir', { prefix: 'vod', path: '0', subpath: 'shows/season 2' })).toEqual({
      status: 409,
      body: { error: 'This name is already taken' },
    });
    expect((await post('make_dir', { prefix: 'vod', path: '0', subpath: 'a.mp4' })).body.error).toBe(
      'This name is already taken',
    );
    expect((await post('make_dir', { prefix: 'vod', path: '0', subpath: 'no/such/parent' })).status).toBe(
      404,
    );
    expect((await post('make_dir', { prefix: 'vod', path: '0', subpath: '.hidden' })).status).toBe(400);
  });

  it('removes a file and an empty directory, refuses a full one, 404 for a missing one', async () => {
    await writeFile(join(root, 'gone.mp4'), 'x');
    await mkdir(join(root, 'empty'));
    expect((await post('remove_file', { prefix: 'vod', dir: '0', subpath: 'gone.mp4' })).status).toBe(200);
    expect((await post('remove_file', { prefix: 'vod', dir: '0', subpath: 'empty' })).status).toBe(200);
    const names = (await list({ prefix: 'vod', path: '0', subpath: '' })).body.files!.map((f) => f.name);
    expect(names).not.toContain('gone.mp4');
    expect(names).not.toContain('empty');
    const full = await post('remove_file', { prefix: 'vod', dir: '0', subpath: 'shows' });
    expect(full.status).toBe(409);
    expect(full.body.error).toContain('not empty');
    expect((await post('remove_file', { prefix: 'vod', dir: '0', subpath: 'gone.mp4' })).status).toBe(404);
    expect((await post('remove_file', { prefix: 'vod', dir: '0', subpath: '' })).status).toBe(400);
    // A link inside the root is removed itself, never its target.
    await symlink(join(root, 'a.mp4'), join(root, 'a-link.mp4'));
    expect((await post('remove_file', { prefix: 'vod', dir: '0', subpath: 'a-link.mp4' })).status).toBe(200);
    expect(await readFile(join(root, 'a.mp4'), 'utf8')).toBe('aa');
  });

  it('uploads files into a directory, replacing one of the same name, and lists them', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    const answer = await upload(
      server,
      [
        { name: 'big.mp4', data: big },
        { name: 'ünïcode clip.mp4', data: Buffer.from('small') },
      ],
      { subpath: 'shows' },
    );
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      files: [
        { name: 'big.mp4', size: big.length },
        { name: 'ünïcode clip.mp4', size: 5 },
      ],
    });
    expect((await readFile(join(root, 'shows', 'big.mp4'))).equals(big)).toBe(true);
    const files = (await list({ prefix: 'vod', path: '0', subpath: 'shows' })).body.files!;
    expect(files).toContainEqual(
      expect.objectContaining({ name: 'ünïcode clip.mp4', type: 'file', size: 5 }),
    );
    // The same name again: the new content replaces the old.
    expect(
      (await upload(server, [{ name: 'big.mp4', data: Buffer.from('new') }], { subpath: 'shows' })).status,
    ).toBe(200);
    expect(await readFile(join(root, 'shows', 'big.mp4'), 'utf8')).toBe('new');
  });

  it('refuses bad upload names, a file larger than declared, a body that is no multipart form', async () => {
    const before = await snapshot(base);
    for (const name of ['../evil.mp4', 'a/b.mp4', 'a\\b.mp4', '.hidden.mp4', '..']) {
      const answer = await upload(server, [{ name, data: Buffer.from('evil') }]);
      expect(answer.status, name).toBe(400);
      expect(((await answer.json()) as { error: string }).error, name).toMatch(/name/);
    }
    const larger = await upload(server, [{ name: 'liar.mp4', data: Buffer.alloc(1000) }], {
      sizes: 'liar.mp4:10',
    });
    expect(larger.status).toBe(400);
    expect(((await larger.json()) as { error: string }).error).toContain('larger than the 10 bytes');
    const json = await server.api(`${API}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-prefix': 'vod' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect(await snapshot(base)).toEqual(before);
  });

  it('asks for credentials on every call (401) and edit rights for changes (403)', async () => {
    const before = await snapshot(base);
    const none = await fetch(`${server.url}${API}/list_files?prefix=vod&path=0&subpath=`);
    expect(none.status).toBe(401);
    for (const call of [
      'remove_file?prefix=vod&dir=0&subpath=a.mp4',
      'make_dir?prefix=vod&path=0&subpath=x',
    ]) {
      expect((await fetch(`${server.url}${API}/${call}`, { method: 'POST' })).status, call).toBe(401);
    }
    expect(
      (await upload(server, [{ name: 'x.mp4', data: Buffer.from('x') }], { authorization: 'Basic eDp5' }))
        .status,
    ).toBe(401);
    // The view-only login reads, but changes nothing.
    expect((await list({ prefix: 'vod', path: '0', subpath: '' }, viewAuth())).status).toBe(200);
    expect(
      (await post('remove_file', { prefix: 'vod', dir: '0', subpath: 'a.mp4' }, viewAuth())).status,
    ).toBe(403);
    expect((await post('make_dir', { prefix: 'vod', path: '0', subpath: 'x' }, viewAuth())).status).toBe(403);
    const viewUpload = await upload(server, [{ name: 'x.mp4', data: Buffer.from('x') }], {
      authorization: viewAuth(),
    });
    expect(viewUpload.status).toBe(403);
    expect(await snapshot(base)).toEqual(before);
  });
});
