import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LocationsList } from './pages/media-list-page.js';

test.use({
  serverConfig: `${minimalConfig}live archive {\n  dvr /tmp/sluice-e2e-dvr 1d;\n}\nfile movies {\n  path /tmp;\n}\n`,
});

test.beforeEach(async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
});

test('adds a location, refuses a used name, and deletes it after asking', async ({ page, server }) => {
  const locations = new LocationsList(page);
  await expect(locations.row('archive')).toBeVisible();
  await expect(locations.create).toBeDisabled();

  await locations.name.fill(' stu dio ');
  await expect(locations.name).toHaveValue('studio');
  await locations.create.click();
  await expect(locations.row('studio')).toBeVisible();
  await expect(locations.name).toHaveValue('');
  await expect.poll(async () => readFile(server.configPath, 'utf8')).toMatch(/^live studio \{\s*\}$/m);

  // Names of locations and of VOD storages are taken.
  for (const used of ['studio', 'movies']) {
    await locations.name.fill(used);
    await expect(page.getByText('this name is already used')).toBeVisible();
    await expect(locations.create).toBeDisabled();
  }
  await locations.name.fill('');

  await locations.deleteButton('studio').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Really delete studio from config?')).toBeVisible();
  await expect(dialog.getByText('DVR archive would remain.')).toBeHidden();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The dialog is gone (its closing transition over) before it is asked for again, as an operator sees it.
  await expect(dialog).toBeHidden();
  await expect(locations.row('studio')).toBeVisible();

  await locations.deleteButton('studio').click();
  await expect(dialog.getByText('Really delete studio from config?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(locations.row('studio')).toBeHidden();
  await expect.poll(async () => readFile(server.configPath, 'utf8')).not.toMatch(/^live studio/m);
});

test('warns that the DVR archive remains when deleting a location that records', async ({ page }) => {
  const locations = new LocationsList(page);
  await locations.deleteButton('archive').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Really delete archive from config?')).toBeVisible();
  await expect(dialog.getByText('DVR archive would remain.')).toBeVisible();
});
