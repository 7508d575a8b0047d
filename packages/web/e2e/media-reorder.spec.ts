import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { StreamsList } from './pages/media-list-page.js';

const names = ['a', 'b', 'c', 'd', 'e'];
test.use({
  serverConfig: `${minimalConfig}${names.map((n, i) => `stream ${n} {\n  url udp://239.0.1.${i}:1234;\n}\n`).join('')}`,
});

/** The stream names in the order the config file lists them. */
async function fileOrder(configPath: string): Promise<string[]> {
  return [...(await readFile(configPath, 'utf8')).matchAll(/^stream (\S+) \{/gm)].map((m) => m[1]!);
}

test('a dragged stream keeps its new place after a reload, the others shifted', async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
  const list = new StreamsList(page);
  await expect.poll(() => list.names()).toEqual(names);

  // d onto a: d first. Then a onto c's place: b c a ….
  await list.row('d').dragTo(list.row('a'));
  await expect.poll(() => list.names()).toEqual(['d', 'a', 'b', 'c', 'e']);
  await expect.poll(() => fileOrder(server.configPath)).toEqual(['d', 'a', 'b', 'c', 'e']);
  await list.row('a').dragTo(list.row('c'));
  await expect.poll(() => list.names()).toEqual(['d', 'b', 'c', 'a', 'e']);

  await page.reload();
  await expect.poll(() => list.names()).toEqual(['d', 'b', 'c', 'a', 'e']);
  expect(await fileOrder(server.configPath)).toEqual(['d', 'b', 'c', 'a', 'e']);
});

test('shows "Drop stream here" while dragging, and no drag unless in config order', async ({
  page,
  server,
}) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
  const list = new StreamsList(page);
  await expect(list.row('a')).toHaveAttribute('draggable', 'true');

  const from = (await list.row('e').boundingBox())!;
  const to = (await list.row('b').boundingBox())!;
  await page.mouse.move(from.x + 20, from.y + 20);
  await page.mouse.down();
  await page.mouse.move(to.x + 20, to.y + 20, { steps: 5 });
  await expect(list.table.getByText('Drop stream here')).toBeVisible();
  await page.mouse.up();
  await expect.poll(() => list.names()).toEqual(['a', 'e', 'b', 'c', 'd']);
  await expect(list.table.getByText('Drop stream here')).toBeHidden();

  await list.header('Name').getByRole('button').click();
  await expect(list.row('a')).toHaveAttribute('draggable', 'false');
});
