import { readFile } from 'node:fs/promises';
import { expect, failedLoad, test } from './fixtures.js';
import { ConfigEditorPage } from './pages/config-editor-page.js';
import { ConsoleShell } from './pages/console-shell.js';

// The stale save answers 409, which Chromium logs.
test.use({ allowedConsoleErrors: [failedLoad(409)] });

/** Issue 13 (Low): a raw-config save made from an old text must not undo a change made since. */
test('a save from a text someone changed since is refused, and their change kept', async ({
  page,
  server,
}) => {
  const shell = new ConsoleShell(page, server.url);
  const editor = new ConfigEditorPage(page);
  await shell.rememberLogin();
  await shell.open('/admin/config');
  await editor.tab.click();
  await expect(editor.text).toHaveValue(/edit_auth admin test-secret-pw;/);
  const loaded = await editor.text.inputValue();

  // Another administrator adds a stream while this one edits the text.
  const other = await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ streams: { theirs: { urls: ['udp://239.0.0.3:1'] } } }),
  });
  expect(other.status).toBe(200);

  await editor.text.fill(`${loaded}# mine\n`);
  await editor.save.click();
  await expect(page.getByText(/changed by someone else since you read it/)).toBeVisible();
  const file = await readFile(server.configPath, 'utf8');
  expect(file).toContain('stream theirs');
  expect(file).not.toContain('# mine');

  // Opened again, the editor has their change, and saves on top of it.
  await page.reload();
  await editor.tab.click();
  await expect(editor.text).toHaveValue(/stream theirs/);
  await editor.text.fill(`${await editor.text.inputValue()}# mine\n`);
  await editor.save.click();
  await expect(editor.saved).toBeVisible();
  expect(await readFile(server.configPath, 'utf8')).toMatch(/stream theirs[\s\S]*# mine/);
});
