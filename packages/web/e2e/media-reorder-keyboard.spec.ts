import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { StreamsList } from './pages/media-list-page.js';

const names = ['a', 'b', 'c', 'd', 'e'];
test.use({
  serverConfig: `${minimalConfig}${names.map((n, i) => `stream ${n} {\n  url udp://239.0.2.${i}:1234;\n}\n`).join('')}`,
});

/** The stream names in the order the config file lists them. */
async function fileOrder(configPath: string): Promise<string[]> {
  return [...(await readFile(configPath, 'utf8')).matchAll(/^stream (\S+) \{/gm)].map((m) => m[1]!);
}

test.beforeEach(async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
});

test('a stream moved two places down with the keyboard is saved in its new place', async ({
  page,
  server,
}) => {
  const list = new StreamsList(page);
  await expect.poll(() => list.names()).toEqual(names);
  const handle = page.getByRole('button', { name: 'Move b', exact: true });
  await expect(handle).toHaveAccessibleDescription(/Space or Enter picks the stream up/);

  await handle.focus();
  await page.keyboard.press('Space');
  await expect(list.table.getByText('Drop stream here')).toBeVisible();
  await expect(page.getByText('b picked up, position 2 of 5.', { exact: false })).toBeAttached();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText('b, position 4 of 5.')).toBeAttached();
  await page.keyboard.press('Enter');

  await expect(list.table.getByText('Drop stream here')).toBeHidden();
  await expect.poll(() => list.names()).toEqual(['a', 'c', 'd', 'b', 'e']);
  await expect.poll(() => fileOrder(server.configPath)).toEqual(['a', 'c', 'd', 'b', 'e']);
  // Focus comes back to the moved stream's handle: the next move needs no search.
  await expect(handle).toBeFocused();

  await page.reload();
  await expect.poll(() => list.names()).toEqual(['a', 'c', 'd', 'b', 'e']);
});

test('Escape puts a picked-up stream back; no handle unless in config order', async ({ page, server }) => {
  const list = new StreamsList(page);
  await expect.poll(() => list.names()).toEqual(names);
  const before = await readFile(server.configPath, 'utf8');
  const handle = page.getByRole('button', { name: 'Move d', exact: true });

  await handle.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(list.table.getByText('Drop stream here')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list.table.getByText('Drop stream here')).toBeHidden();
  await expect(page.getByText('Move cancelled, d is back in its place.')).toBeAttached();
  await expect.poll(() => list.names()).toEqual(names);
  await expect(handle).toBeFocused();
  expect(await readFile(server.configPath, 'utf8')).toBe(before);

  await list.header('Name').getByRole('button').click();
  await expect(page.getByRole('button', { name: /^Move / })).toHaveCount(0);
});
