import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, expectPlaying, StreamPage } from './pages/stream-page.js';

const TEST_SOURCE = 'test://?size=320x180&bitrate=300';

test.describe('stream overview', () => {
  test.use({ serverConfig: `${minimalConfig}stream demo {\n  url ${TEST_SOURCE};\n  static true;\n}\n` });

  test.beforeEach(async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
  });
  // The player keeps loading segments: leave the page before the test's server stops.
  test.afterEach(async ({ page }) => {
    await page.close();
  });

  test('waits for an unknown stream, shows the tabs of a known one', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/nope`);
    await expect(page.getByRole('heading', { name: 'Stream nope not found' })).toBeVisible();
    await page.goto(`${server.url}/admin/standalone/demo`);
    const stream = new StreamPage(page);
    for (const label of ['Overview', 'Input', 'Output', 'Clients'])
      await expect(stream.tab(label)).toBeVisible();
    await stream.tab('Output').click();
    await expect(page).toHaveURL(/\/admin\/standalone\/demo\/output$/);
  });

  test('saves title and description to the config file', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo`);
    const stream = new StreamPage(page);
    await expect(stream.save).toBeDisabled();
    await stream.field('Title').fill('Demo title');
    await stream.field('Description').fill('about demo');
    await stream.field('Description').blur();
    await stream.saveAndWait();
    await expectConfigFile(
      server.configPath,
      (text) => text.includes('Demo title') && text.includes('about demo'),
    );
  });

  test('a renamed stream moves, and the page follows it', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo`);
    const stream = new StreamPage(page);
    await stream.field('Name').fill('renamed');
    await stream.save.click();
    await expect(page).toHaveURL(/\/admin\/standalone\/renamed$/);
    await expectConfigFile(
      server.configPath,
      (text) => /stream renamed/.test(text) && !/stream demo/.test(text),
    );
  });

  test('plays live, shows traffic and the live log', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo`);
    const stream = new StreamPage(page);
    await expectPlaying(stream.video);
    await expect(page.getByLabel('traffic chart')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByLabel('HTML code')).toHaveValue(
      `<iframe style="width:640px; height:480px;" allowfullscreen src="${server.url}/demo/embed.html?version=3&autoplay=true"></iframe>`,
    );
    await page.getByRole('button', { name: 'Show log' }).click();
    await expect(page.getByLabel('stream log')).not.toBeEmpty({ timeout: 20_000 });
  });

  test('disable and on demand save at once', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo`);
    const onDemand = page.getByRole('radio', { name: 'on demand' });
    await onDemand.click();
    await expect(onDemand).toBeChecked();
    await expectConfigFile(server.configPath, (text) => !/static/.test(text));
    // On demand: no player until asked for.
    const stream = new StreamPage(page);
    await expect(stream.video).toHaveCount(0);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expectPlaying(stream.video);

    await page.getByRole('button', { name: 'Disable' }).click();
    await expectConfigFile(server.configPath, (text) => /disabled/.test(text));
    await expect(page.getByRole('button', { name: 'Enable' })).toBeVisible();
    await expect(stream.video).toHaveCount(0);
  });
});
