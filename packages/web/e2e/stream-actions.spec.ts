import { readFile } from 'node:fs/promises';
import { streamStats } from '../../server/test/media-helpers.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { StreamsList } from './pages/media-list-page.js';

const TEST_SOURCE = 'test://?size=320x180&bitrate=300';
const config = `${minimalConfig}stream demo {\n  url ${TEST_SOURCE};\n  static true;\n}\nstream other {\n  url ${TEST_SOURCE};\n  static true;\n}\n`;

/** Restart and Delete (issue 23): on the stream page and in the media list row. */
test.describe('stream actions', () => {
  test.use({ serverConfig: config });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('Restart starts the stream over: its start time moves to the click', async ({ page, server }) => {
    await expect
      .poll(async () => (await streamStats(server, 'demo')).lifetime ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(1500);
    const before = (await streamStats(server, 'demo')).start_running_at!;
    await page.goto(`${server.url}/admin/standalone/demo`);
    const clickedAt = Date.now();
    await page
      .getByRole('group', { name: 'demo actions' })
      .getByRole('button', { name: 'Restart', exact: true })
      .click();
    await expect
      .poll(async () => (await streamStats(server, 'demo')).start_running_at ?? 0)
      .toBeGreaterThanOrEqual(clickedAt - 1000);
    expect((await streamStats(server, 'demo')).start_running_at).toBeGreaterThan(before);

    // From the list row too.
    await page.goto(`${server.url}/admin`);
    const list = new StreamsList(page);
    const rowClickAt = Date.now();
    await list.row('other').getByRole('button', { name: 'Restart other' }).click();
    await expect
      .poll(async () => (await streamStats(server, 'other')).start_running_at ?? 0)
      .toBeGreaterThanOrEqual(rowClickAt - 1000);
  });

  test("Delete asks the spec's question, then the stream is gone from the list and the config", async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/standalone/demo`);
    await page
      .getByRole('group', { name: 'demo actions' })
      .getByRole('button', { name: 'Delete demo' })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Really delete demo from config?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const list = new StreamsList(page);
    await expect(page).toHaveURL(new RegExp(`${server.url}/admin/?$`));
    await expect(list.row('other')).toBeVisible();
    await expect(list.row('demo')).toHaveCount(0);
    await expect.poll(async () => readFile(server.configPath, 'utf8')).not.toMatch(/stream demo/);

    // From the row: Cancel keeps it, Delete removes it.
    await list.row('other').getByRole('button', { name: 'Delete other' }).click();
    await expect(page.getByRole('dialog').getByText('Really delete other from config?')).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(list.row('other')).toBeVisible();
    await list.row('other').getByRole('button', { name: 'Delete other' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(list.row('other')).toHaveCount(0);
    await expect.poll(async () => readFile(server.configPath, 'utf8')).not.toMatch(/stream other/);
  });
});
