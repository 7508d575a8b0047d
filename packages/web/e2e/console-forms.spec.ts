import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, StreamPage } from './pages/stream-page.js';

const UNREACHABLE = 'The server is unreachable: nothing was saved, your changes are kept here.';

test.describe('stream forms', () => {
  test.use({ serverConfig: `${minimalConfig}stream demo {\n  url test://?size=320x180;\n}\n` });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('a Save while the server is down says it is unreachable and keeps the edit', async ({
    page,
    server,
  }) => {
    const stream = new StreamPage(page);
    await page.goto(`${server.url}/admin/standalone/demo/output`);
    await stream.field('Max sessions').fill('7');
    await stream.field('Max sessions').blur();

    await server.stop();
    await expect(stream.save).toBeEnabled();
    await stream.save.click();
    await expect(page.getByText(UNREACHABLE)).toBeVisible();
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);
    await expect(stream.field('Max sessions')).toHaveValue('7');

    // The edit waited: once the server is back, the same Save sends it.
    await server.restart();
    await expect(new ConsoleShell(page, server.url).offline).toBeHidden();
    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (text) => text.includes('max_sessions 7'));
  });

  test('tabs holding edits are marked, and a Save sends only its own tab', async ({ page, server }) => {
    const stream = new StreamPage(page);
    await page.goto(`${server.url}/admin/standalone/demo/output`);
    await stream.field('Max sessions').fill('7');
    await stream.field('Max sessions').blur();
    await expect(stream.tab('Output')).toHaveAccessibleDescription('unsaved changes');

    await stream.tab('Input').click();
    await expect(stream.tab('Input')).not.toHaveAccessibleDescription('unsaved changes');
    await expect(stream.save).toBeDisabled();
    await stream.field('Cluster key').fill('k-one');
    await stream.field('Cluster key').blur();
    await expect(stream.tab('Input')).toHaveAccessibleDescription('unsaved changes');
    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (text) => text.includes('k-one'));
    expect(await readFile(server.configPath, 'utf8')).not.toContain('max_sessions');
    await expect(stream.tab('Input')).not.toHaveAccessibleDescription('unsaved changes');
    await expect(stream.tab('Output')).toHaveAccessibleDescription('unsaved changes');

    await stream.tab('Output').click();
    await expect(stream.field('Max sessions')).toHaveValue('7');
    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (text) => text.includes('max_sessions 7'));
    await expect(stream.tab('Output')).not.toHaveAccessibleDescription('unsaved changes');
  });
});
