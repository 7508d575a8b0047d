import { readFile } from 'node:fs/promises';
import { expect, failedLoad, test } from './fixtures.js';
import { ConfigEditorPage } from './pages/config-editor-page.js';
import { ConsoleShell } from './pages/console-shell.js';
import { SettingsPage } from './pages/settings-page.js';

// The refused parse answers 400, which Chromium logs.
test.use({ allowedConsoleErrors: [failedLoad(400)] });

test('refuses a broken config with its line and column, then saves a good one', async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  const editor = new ConfigEditorPage(page);
  await shell.rememberLogin();
  await shell.open('/admin/config');
  await editor.tab.click();
  await expect(page).toHaveURL(/\/admin\/config\/editor$/);
  await expect(editor.text).toHaveValue(/edit_auth admin test-secret-pw;/);
  await expect(editor.save).toBeDisabled();

  const original = await editor.text.inputValue();
  await editor.text.fill(`${original}rtmp {\n`);
  await expect(editor.save).toBeEnabled();
  await editor.save.click();
  await expect(editor.wrong).toBeVisible();
  await expect(editor.wrong).toContainText(/line \d+, column \d+/);
  expect(await readFile(server.configPath, 'utf8')).toBe(original);

  const good = `${original}# added in the console\nrtmp 1960;\n`;
  await editor.text.fill(good);
  await editor.save.click();
  await expect(editor.saved).toBeVisible();
  await expect(editor.wrong).toBeHidden();
  await expect(editor.save).toBeDisabled();
  expect(await readFile(server.configPath, 'utf8')).toBe(good);

  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(new SettingsPage(page).field('RTMP port')).toHaveValue('1960');
});
