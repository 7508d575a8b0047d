import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './harness.js';
import { API, multipartOf, snapshot, uploadHeaders, vodConfig } from './vod-files-helpers.js';

/**
 * Every path trick on every files API call: refused with a 4xx naming the problem, and nothing
 * changed inside the root or outside it. The tricks are the decoded values; each is sent encoded
 * once (as the console does) and, where it differs, as it is (one decode away from the trick).
 */
describe('VOD files API: path tricks', () => {
  let server: RunningServer;
  let base: string;
  let root: string;
  let outside: string;
  let tricks: string[];
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sluice-vod-tricks-'));
    root = join(base, 'root');
    outside = join(base, 'outside');
    await mkdir(join(root, 'shows'), { recursive: true });
    await mkdir(join(outside, 'inner'), { recursive: true });
    await writeFile(join(outside, 'secret.mp4'), 'secret');
    await writeFile(join(outside, 'inner', 'deep.mp4'), 'deep');
    await writeFile(join(root, 'shows', 'ep1.mp4'), 'ep1');
    // A symlinked directory out of the root, a link to a file out of it, one hidden deeper.
    await symlink(outside, join(root, 'out'));
    await symlink(join(outside, 'secret.mp4'), join(root, 'out-file.mp4'));
    await symlink('../../outside/inner', join(root, 'shows', 'sneaky'));
    tricks = [
      '..',
      '../outside',
      '../outside/secret.mp4',
      'shows/../../outside',
      '%2e%2e',
      '%2e%2e/outside',
      '%2E%2E%2Foutside',
      'shows%2f..%2f..%2foutside',
      '%252e%252e',
      outside,
      join(outside, 'secret.mp4'),
      '/etc',
      'shows\0',
      'shows/ep1.mp4\0.txt',
      '..\\outside',
      'shows\\..\\..\\outside',
      'shows//ep1.mp4',
      './shows',
      'out',
      'out/secret.mp4',
      'out/inner',
      'out-file.mp4',
      'shows/sneaky',
      'shows/sneaky/deep.mp4',
      `${'a/'.repeat(1500)}x`,
    ];
    server = await startServer({ config: vodConfig([root]) });
  });
  afterAll(async () => {
    await server.cleanup();
    await rm(base, { recursive: true, force: true });
  });

  /** The trick sent encoded once, and raw when that is a different request. */
  const spellings = (trick: string) => {
    const once = encodeURIComponent(trick);
    const raw = trick
      .replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c))
      .replace(/[#&]/g, encodeURIComponent);
    return raw === once ? [once] : [once, raw];
  };

  const expectRefused = async (what: string, answer: Response) => {
    const body = (await answer.json().catch(() => ({}))) as { error?: string };
    expect(answer.status, `${what}: ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
    expect(answer.status, what).toBeLessThan(500);
    expect(body.error, what).toMatch(/\w/);
  };

  it('refuses every trick on list_files, remove_file and make_dir', async () => {
    const before = await snapshot(base);
    for (const trick of tricks) {
      for (const subpath of spellings(trick)) {
        await expectRefused(
          `list ${trick}`,
          await server.api(`${API}/list_files?prefix=vod&path=0&subpath=${subpath}`),
        );
        const remove = `${API}/remove_file?prefix=vod&dir=0&subpath=${subpath}`;
        await expectRefused(`remove ${trick}`, await server.api(remove, { method: 'POST' }));
        const made = `${API}/make_dir?prefix=vod&path=0&subpath=${subpath}${encodeURIComponent('/new-dir')}`;
        await expectRefused(`make_dir ${trick}/new-dir`, await server.api(made, { method: 'POST' }));
        const madeAt = `${API}/make_dir?prefix=vod&path=0&subpath=${subpath}`;
        await expectRefused(`make_dir ${trick}`, await server.api(madeAt, { method: 'POST' }));
      }
    }
    expect(await snapshot(base)).toEqual(before);
  });

  it('refuses every trick as an upload target directory (X-Subpath)', async () => {
    const before = await snapshot(base);
    const { contentType, body } = multipartOf([{ name: 'planted.mp4', data: Buffer.from('planted') }]);
    for (const trick of tricks) {
      // A header can't carry NUL or a newline raw: those go encoded only.
      for (const subpath of spellings(trick)) {
        const headers = {
          ...uploadHeaders({}, contentType),
          'x-subpath': subpath,
          'x-file-sizes': 'planted.mp4:7',
        };
        await expectRefused(
          `upload into ${trick}`,
          await server.api(`${API}/upload`, { method: 'POST', headers, body }),
        );
      }
    }
    expect(await snapshot(base)).toEqual(before);
  });

  it('uploads into the same directories when they are named plainly', async () => {
    const { contentType, body } = multipartOf([{ name: 'fine.mp4', data: Buffer.from('fine') }]);
    const headers = { ...uploadHeaders({ subpath: 'shows' }, contentType), 'x-file-sizes': 'fine.mp4:4' };
    expect((await server.api(`${API}/upload`, { method: 'POST', headers, body })).status).toBe(200);
    expect((await snapshot(root))['shows/fine.mp4']).toBe(`file ${Buffer.from('fine').toString('base64')}`);
  });
});
