import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, failedLoad, minimalConfig, test } from './fixtures.js';
import { ConfigEditorPage } from './pages/config-editor-page.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, StreamPage } from './pages/stream-page.js';

/** Issue 17 "Concurrent edits": two operators (browser contexts) on one server. */

// A stale save is answered 409, which Chromium logs.
test.use({
  allowedConsoleErrors: [failedLoad(409)],
  serverConfig: `${minimalConfig}stream demo {\n  url udp://239.0.0.9:5000;\n}\n`,
});

async function openAs(page: Page, url: string, path: string): Promise<void> {
  const shell = new ConsoleShell(page, url);
  await shell.rememberLogin();
  await shell.open(path);
}

/** Opens the config editor with its text loaded. */
async function openEditor(page: Page, url: string): Promise<ConfigEditorPage> {
  await openAs(page, url, '/admin/config/editor');
  const editor = new ConfigEditorPage(page);
  await expect(editor.text).toHaveValue(/stream demo/);
  return editor;
}

/** Another operator saves `addition` at the end of the config from their own editor. */
async function saveFromOtherEditor(page: Page, url: string, addition: string): Promise<void> {
  const editor = await openEditor(page, url);
  await editor.text.fill(`${await editor.text.inputValue()}${addition}`);
  await editor.save.click();
  await expect(editor.saved).toBeVisible();
}

const changedElsewhere = (page: Page) => page.getByRole('alert').filter({ hasText: 'Changed elsewhere' });

test('the config editor shows a change saved in another tab by itself', async ({
  page,
  server,
  openContext,
}) => {
  const mine = await openEditor(page, server.url);
  const other = await openContext();
  await saveFromOtherEditor(other.page, server.url, 'stream theirs {\n  url udp://239.0.0.3:1;\n}\n');
  await expect(mine.text).toHaveValue(/stream theirs/);
  await expect(changedElsewhere(page)).toHaveCount(0);
  await expect(mine.save).toBeDisabled();
});

test('with unsaved edits the editor offers Compare and Reload, and Reload takes theirs', async ({
  page,
  server,
  openContext,
}) => {
  const mine = await openEditor(page, server.url);
  await mine.text.fill(`${await mine.text.inputValue()}# mine\n`);
  const other = await openContext();
  await saveFromOtherEditor(other.page, server.url, 'stream theirs {\n  url udp://239.0.0.3:1;\n}\n');

  const notice = changedElsewhere(page);
  await expect(notice).toBeVisible();
  // My text stays as I typed it until I choose.
  await expect(mine.text).toHaveValue(/# mine/);
  await notice.getByRole('button', { name: 'Compare' }).click();
  const comparison = page.getByLabel('Your text compared with the saved config');
  await expect(comparison).toContainText('- # mine');
  await expect(comparison).toContainText('+ stream theirs {');

  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(mine.text).toHaveValue(/stream theirs/);
  await expect(mine.text).not.toHaveValue(/# mine/);
  await expect(notice).toHaveCount(0);
});

test('a save of a text changed elsewhere is refused with the same choice, and their change kept', async ({
  page,
  server,
  openContext,
}) => {
  const mine = await openEditor(page, server.url);
  await mine.text.fill(`${await mine.text.inputValue()}# mine\n`);
  const other = await openContext();
  await saveFromOtherEditor(other.page, server.url, 'stream theirs {\n  url udp://239.0.0.3:1;\n}\n');

  await mine.save.click();
  await expect(page.getByText(/changed by someone else since you read it/)).toBeVisible();
  await expect(changedElsewhere(page)).toBeVisible();
  const file = await readFile(server.configPath, 'utf8');
  expect(file).toContain('stream theirs');
  expect(file).not.toContain('# mine');
});

test('a stream form with unsaved edits shows the change made elsewhere, and its save does not undo it', async ({
  page,
  server,
  openContext,
}) => {
  const mine = new StreamPage(page);
  await openAs(page, server.url, '/admin/standalone/demo');
  await mine.field('Title').fill('Mine');
  await mine.field('Title').blur();
  await expect(mine.save).toBeEnabled();

  const other = await openContext();
  const theirs = new StreamPage(other.page);
  await openAs(other.page, server.url, '/admin/standalone/demo');
  await theirs.field('Title').fill('Theirs');
  await theirs.field('Title').blur();
  await theirs.saveAndWait();
  await expectConfigFile(server.configPath, (text) => text.includes('Theirs'));

  const notice = page.getByRole('alert').filter({ hasText: 'This stream was changed elsewhere' });
  await expect(notice).toBeVisible();
  await expect(mine.field('Title')).toHaveValue('Mine');
  // Saving anyway is refused: their title stays in the file.
  await mine.save.click();
  await expect(page.getByText(/Not saved: it was changed elsewhere/)).toBeVisible();
  expect(await readFile(server.configPath, 'utf8')).toContain('Theirs');
  expect(await readFile(server.configPath, 'utf8')).not.toContain('Mine');

  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(mine.field('Title')).toHaveValue('Theirs');
  await expect(notice).toHaveCount(0);
  await expect(mine.save).toBeDisabled();
});

test('a change to another stream does not disturb a stream form, and its save keeps that change', async ({
  page,
  server,
}) => {
  const mine = new StreamPage(page);
  await openAs(page, server.url, '/admin/standalone/demo');
  await mine.field('Title').fill('Mine');
  await mine.field('Title').blur();
  await expect(mine.save).toBeEnabled();
  const other = await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ streams: { other: { urls: ['udp://239.0.0.4:1'] } } }),
  });
  expect(other.status).toBe(200);
  await mine.saveAndWait();
  await expectConfigFile(server.configPath, (text) => text.includes('Mine') && text.includes('stream other'));
  await expect(page.getByRole('alert').filter({ hasText: 'changed elsewhere' })).toHaveCount(0);
});
