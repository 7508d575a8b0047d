import { readFile } from 'node:fs/promises';
import { freePort } from '../../server/test/harness.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { StreamsList } from './pages/media-list-page.js';

const TEST_SOURCE = 'test://?size=320x180&bitrate=300';

test.describe('streams list', () => {
  test('adds a stream that goes online, its figures live from the server', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open();
    const list = new StreamsList(page);
    await expect(list.noMatches).toBeVisible();

    await list.addStream('fresh', TEST_SOURCE);
    await expect(list.row('fresh')).toBeVisible();
    await expect(list.field('Name')).toHaveValue('');
    expect(await readFile(server.configPath, 'utf8')).toMatch(
      /^stream fresh \{\n {2}url test:\/\/\?size=320x180&bitrate=300;\n {2}static;\n\}$/m,
    );

    // No reload: the status, bitrate and runtime arrive over the websocket.
    await expect(list.status('fresh')).toHaveText('online', { timeout: 20_000 });
    await expect(list.cell('fresh', 'bitrate')).toHaveText(/^\d+ kbit\/s$/);
    // A few seconds, or more on a busy machine where the page draws late: minutes at most.
    await expect(list.cell('fresh', 'runtime')).toHaveText(/^00:0\d:\d\d$/);
    const runtime = await list.cell('fresh', 'runtime').textContent();
    await expect(list.cell('fresh', 'runtime')).not.toHaveText(runtime ?? '');
    await expect(list.cell('fresh', 'clients')).toHaveText('0');
    await expect(list.cell('fresh', 'source')).toHaveText(TEST_SOURCE);
  });

  test('converts http source URLs, refuses the rest, and wants a unique name', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open();
    const list = new StreamsList(page);
    const create = list.addForm.getByRole('button', { name: 'Create' });

    await list.field('Name').fill(' cam 1 ');
    await expect(list.field('Name')).toHaveValue('cam1');
    await list.field('Source URL').fill('http://origin.example/live/index.m3u8');
    await list.field('Name').focus();
    await expect(list.field('Source URL')).toHaveValue('hls://origin.example/live/index.m3u8');
    await list.field('Source URL').fill('https://origin.example/cam/mpegts');
    await list.field('Name').focus();
    await expect(list.field('Source URL')).toHaveValue('tshttps://origin.example/cam/mpegts');

    await list.field('Source URL').fill('http://origin.example/page.html');
    await list.field('Name').focus();
    await expect(list.addForm.getByText('specify hls:// or tshttp:// protocol')).toBeVisible();
    await expect(create).toBeDisabled();

    await list.field('Source URL').fill('udp://239.0.0.1:1234');
    await expect(create).toBeEnabled();
    await create.click();
    await expect(list.row('cam1')).toBeVisible();
    await list.field('Name').fill('cam1');
    await expect(list.addForm.getByText('this name is already used')).toBeVisible();
    await list.field('Source URL').fill('udp://239.0.0.2:1234');
    await expect(create).toBeDisabled();
  });

  test.describe('with a source that refuses', () => {
    let port = 0;
    test.beforeAll(async () => {
      port = await freePort();
    });
    test.use({
      // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
      serverConfig: async ({}, use) =>
        use(
          `${minimalConfig}stream broken {\n  url tshttp://127.0.0.1:${port}/none.ts;\n  static true;\n}\n`,
        ),
    });

    test('shows error with the source error text and the retries', async ({ page, server }) => {
      const shell = new ConsoleShell(page, server.url);
      await shell.rememberLogin();
      await shell.open();
      const list = new StreamsList(page);
      await expect(list.status('broken')).toContainText('error');
      await expect(list.status('broken')).toContainText(/retries: \d+/);
      // The row shows the server's own words for what went wrong.
      const view = (await (await server.api('/flussonic/api/read_config')).json()) as {
        streams: { broken: { stats: { source_error?: string } } };
      };
      const error = view.streams.broken.stats.source_error;
      expect(error).toBeTruthy();
      await expect(list.cell('broken', 'source')).toContainText(error!);
    });
  });

  test.describe('with streams named with a slash', () => {
    test.use({
      serverConfig: `${minimalConfig}stream news/eu {\n  url udp://239.0.0.1:1234;\n}\nstream cam {\n  url udp://239.0.0.2:1234;\n}\n`,
    });

    test('selects an item by its URL-encoded name, and "back to list" returns', async ({ page, server }) => {
      const shell = new ConsoleShell(page, server.url);
      await shell.rememberLogin();
      await shell.open('/admin?filter=waiting');
      const list = new StreamsList(page);
      await list.row('news/eu').getByRole('link', { name: 'news/eu' }).click();
      await expect(page).toHaveURL(`${server.url}/admin/standalone/news%2Feu?filter=waiting`);
      await expect(list.row('news/eu')).toHaveAttribute('aria-selected', 'true');
      await expect(list.row('cam')).toHaveAttribute('aria-selected', 'false');
      // Beside an open item the rows can't be dragged (spec 000 §2).
      await expect(list.row('cam')).toHaveAttribute('draggable', 'false');

      await list.backToList.click();
      await expect(page).toHaveURL(`${server.url}/admin?filter=waiting`);
      await expect(list.backToList).toBeHidden();
      await expect(list.row('news/eu')).toHaveAttribute('aria-selected', 'false');

      // A link straight to the item selects it too.
      await shell.open('/admin/standalone/news%2Feu');
      await expect(list.row('news/eu')).toHaveAttribute('aria-selected', 'true');
    });
  });
});
