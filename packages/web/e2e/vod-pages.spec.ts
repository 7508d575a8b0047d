import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile } from './pages/stream-page.js';
import { VodPage } from './pages/vod-page.js';

/** Two library directories of the test's own; the VOD starts with the first. */
let root = '';
let first = '';
let second = '';

test.beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-e2e-vod-pages-'));
  first = join(root, 'movies');
  second = join(root, 'shows');
  await mkdir(first);
  await mkdir(second);
});
test.afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The `file vod { … }` block of the config file as saved. */
const vodBlock = (text: string) => /^file vod \{[\s\S]*?^\}/m.exec(text)?.[0] ?? '';

test.describe('VOD pages', () => {
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
    serverConfig: async ({}, use) => use(`${minimalConfig}live cams {\n}\nfile vod {\n  path ${first};\n}\n`),
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test("overview: description, a 'New path' row, a path emptied on blur removed, disable and enable", async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/vod/vod`);
    const vod = new VodPage(page);
    await expect(vod.field('Name')).toHaveValue('vod');
    await expect.poll(() => vod.pathValues()).toEqual([first, '']);
    await expect(vod.paths.getByRole('link', { name: 'browse' })).toHaveAttribute(
      'href',
      '/admin/vod/vod/tree/0',
    );

    await vod.field('Description').fill('feature films');
    await vod.field('Description').blur();
    await vod.field('New path').fill(second);
    await expect.poll(() => vod.pathValues()).toEqual([first, second, '']);
    await vod.saveAndWait();
    await expectConfigFile(server.configPath, (t) => {
      const block = vodBlock(t);
      return (
        block.includes('feature films') &&
        block.includes(`path ${first};`) &&
        block.includes(`path ${second};`)
      );
    });
    // Saved: the second path is browsable as number 1.
    await expect(vod.paths.getByRole('link', { name: 'browse' }).nth(1)).toHaveAttribute(
      'href',
      '/admin/vod/vod/tree/1',
    );

    // Emptying the first path and leaving it removes the row.
    await vod.field('Path 1').fill('');
    await vod.field('Path 1').blur();
    await expect.poll(() => vod.pathValues()).toEqual([second, '']);
    await vod.saveAndWait();
    await expectConfigFile(server.configPath, (t) => {
      const block = vodBlock(t);
      return !block.includes(`path ${first};`) && block.includes(`path ${second};`);
    });

    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Enable', exact: true })).toBeVisible();
    await expectConfigFile(server.configPath, (t) => /^\s*disabled;$/m.test(vodBlock(t)));
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Disable', exact: true })).toBeVisible();
    await expectConfigFile(server.configPath, (t) => vodBlock(t) !== '' && !/disabled/.test(vodBlock(t)));
  });

  test('VOD settings save each field on its own; the output tab saves download, MBR and max sessions', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/vod/vod`);
    const vod = new VodPage(page);
    const queue = vod.setting('Max simultaneous disk requests');
    const readers = vod.setting('Max disk readers per file');
    await expect(queue.save).toBeDisabled();
    await queue.input.fill('8');
    await readers.input.fill('3');
    await queue.save.click();
    await expectConfigFile(server.configPath, (t) => /read_queue 8;/.test(vodBlock(t)));
    // Only its own field went: the other is still typed, unsaved.
    expect(vodBlock(await readFile(server.configPath, 'utf8'))).not.toMatch(/max_readers/);
    await expect(readers.save).toBeEnabled();
    await readers.save.click();
    await expectConfigFile(server.configPath, (t) => /max_readers 3;/.test(vodBlock(t)));
    await expect(readers.save).toBeDisabled();

    await vod.tab('Output').click();
    await page.getByRole('radio', { name: 'disabled' }).check();
    await page.getByLabel('Enable MBR from multiple files').check();
    await vod.field('Max sessions').fill('5');
    await vod.saveAndWait();
    await expectConfigFile(server.configPath, (t) => {
      const block = vodBlock(t);
      return /download false;/.test(block) && /^\s*auto_mbr;$/m.test(block) && /max_sessions 5;/.test(block);
    });

    // A file of this VOD lists no MP4 link now that direct download is disabled.
    await page.goto(`${server.url}/admin/file/${encodeURIComponent('vod/any.mp4')}/output`);
    const links = page.getByRole('table', { name: 'output links' });
    await expect(links.getByRole('row', { name: 'HLS', exact: true })).toBeVisible();
    await expect(links.getByRole('row', { name: 'MP4', exact: true })).toHaveCount(0);
    await page.goto(`${server.url}/admin/vod/vod/output`);

    await vod.tab('Input').click();
    await expect.poll(() => vod.pathValues()).toEqual([first, '']);

    await vod.tab('Auth').click();
    await expect(page.getByTestId('media-auth')).toBeVisible();
    await expect(page.getByText('DRM', { exact: true })).toHaveCount(0);
  });

  test('the media list shows the VOD with its paths and opens it; a rename moves it', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin`);
    const table = page.getByRole('table', { name: 'VOD locations' });
    const row = table.getByRole('row', { name: 'vod', exact: true });
    await expect(row).toContainText(first);
    await row.getByRole('link', { name: 'vod' }).click();
    await expect(page).toHaveURL(/\/admin\/vod\/vod$/);

    const vod = new VodPage(page);
    await vod.field('Name').fill('cams');
    await expect(page.getByText('this name is already used')).toBeVisible();
    await vod.field('Name').fill('library');
    await vod.save.click();
    await expect(page).toHaveURL(/\/admin\/vod\/library$/);
    await expectConfigFile(server.configPath, (t) => /^file library \{/m.test(t) && !/^file vod /m.test(t));
    await page.getByRole('link', { name: 'back to list' }).click();
    await expect(table.getByRole('row', { name: 'library', exact: true })).toContainText(first);
  });
});
