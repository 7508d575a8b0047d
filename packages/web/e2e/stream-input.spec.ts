import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, StreamPage } from './pages/stream-page.js';

const FIRST = 'test://?size=160x90&bitrate=100';
const SECOND = 'test://?size=160x90&bitrate=120';

test.describe('stream input', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url ${FIRST};\n  url ${SECOND};\n  static true;\n}\n`,
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  const row = (page: import('@playwright/test').Page, n: number) =>
    page.getByRole('group', { name: `Source ${n}` });

  test('switching the source moves the active URL', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo/input`);
    await expect(row(page, 1).getByLabel('source status')).toHaveText('online', { timeout: 20_000 });
    const switchButton = row(page, 2).getByRole('button', { name: 'switch' });
    await switchButton.click();
    await expect(row(page, 2).getByLabel('source status')).toHaveText('online', { timeout: 20_000 });
    await expect(row(page, 1).getByRole('button', { name: 'switch' })).toBeVisible();
  });

  test('adds a converted URL, reorders by drag, removes an emptied one, and saves', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/standalone/demo/input`);
    const stream = new StreamPage(page);
    await page.getByLabel('New source URL').fill('http://example.invalid/a.m3u8');
    await page.getByLabel('New source URL').blur();
    await expect(page.getByLabel('Source URL 3')).toHaveValue('hls://example.invalid/a.m3u8');
    await expect(row(page, 3).getByLabel('source status')).toHaveText('unsaved');

    await page.getByLabel('New source URL').fill('http://example.invalid/page');
    await expect(page.getByText('specify hls:// or tshttp:// protocol')).toBeVisible();
    await page.getByLabel('New source URL').fill('');

    await page.getByLabel('Drag source 3').dragTo(row(page, 1));
    await expect(page.getByLabel('Source URL 1')).toHaveValue('hls://example.invalid/a.m3u8');

    await page.getByLabel('Source URL 3').fill('');
    await page.getByLabel('Source URL 3').blur();
    await expect(page.getByLabel('Source URL 3')).toHaveCount(0);

    await stream.field('Source timeout').fill('7');
    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (text) => {
      const a = text.indexOf('hls://example.invalid/a.m3u8');
      return a > 0 && a < text.indexOf(FIRST) && !text.includes(SECOND) && text.includes('source_timeout 7');
    });
  });

  test('a source options page sets scheme options and free options, refusing reserved keys', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/standalone/demo/input`);
    await page.getByLabel('New source URL').fill('hls://example.invalid/b.m3u8');
    await page.getByLabel('New source URL').blur();
    const stream = new StreamPage(page);
    await stream.saveAndWait();
    await row(page, 3).getByRole('link', { name: 'options' }).click();
    await expect(page).toHaveURL(/\/admin\/standalone\/demo\/input\/2$/);
    await stream.field('Buffer').fill('5');
    await stream.field('Buffer').blur();
    // One row, typed and then corrected in place (what was typed stays in the row: issue 17).
    await page.getByLabel('key').first().fill('priority');
    await page.getByLabel('value').first().fill('1');
    await page.getByLabel('value').first().blur();
    // The refusal's alert (Buffer set now shows its own "not applied" alert too: issue 23).
    await expect(page.getByRole('alert').filter({ hasText: 'priority' })).toBeVisible();
    await page.getByLabel('key').first().fill('foo');
    await page.getByLabel('value').first().fill('bar');
    await page.getByLabel('value').first().blur();
    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (text) => /buffer=5/.test(text) || /buffer 5/.test(text));
    const text = await readFile(server.configPath, 'utf8');
    expect(text).toMatch(/foo/);
    await page.getByRole('link', { name: 'back to input' }).click();
    await expect(page).toHaveURL(/\/admin\/standalone\/demo\/input$/);
  });
});
