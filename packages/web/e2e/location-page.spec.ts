import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, StreamPage } from './pages/stream-page.js';

test.describe('location page', () => {
  test.use({ serverConfig: `${minimalConfig}live cams {\n}\n` });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('waits for an unknown location; edits overview, input, output and process', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/location/nope`);
    await expect(page.getByRole('heading', { name: 'Location nope not found' })).toBeVisible();

    await page.goto(`${server.url}/admin/location/cams`);
    const form = new StreamPage(page);
    await form.field('Description').fill('the cameras');
    await form.field('Description').blur();
    await form.saveAndWait();
    await expectConfigFile(server.configPath, (t) => t.includes('the cameras'));

    const tabs = page.getByRole('navigation', { name: 'location tabs' });
    await tabs.getByRole('link', { name: 'Input', exact: true }).click();
    await expect(page.getByText('replace {NAME} with any path to publish')).toBeVisible();
    await form.field('Source timeout').fill('9');
    await form.saveAndWait();
    await expectConfigFile(server.configPath, (t) => t.includes('source_timeout 9'));

    await tabs.getByRole('link', { name: 'Output', exact: true }).click();
    await expect(page.getByText('replace {NAME} with the stream name')).toBeVisible();
    await form.field('Max sessions').fill('4');
    await form.saveAndWait();
    await expectConfigFile(server.configPath, (t) => t.includes('max_sessions 4'));

    await tabs.getByRole('link', { name: 'Process', exact: true }).click();
    await page.getByRole('radio', { name: 'enabled' }).click();
    await form.saveAndWait();
    await expectConfigFile(server.configPath, (t) => t.includes('thumbnails'));

    await tabs.getByRole('link', { name: 'Clients', exact: true }).click();
    await expect(page.getByText('No information about clients was recorded.')).toBeVisible();
  });

  test('a renamed location moves and the page follows; delete asks first', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/location/cams`);
    const form = new StreamPage(page);
    await form.field('Name').fill('cameras');
    await form.save.click();
    await expect(page).toHaveURL(/\/admin\/location\/cameras$/);
    await expectConfigFile(server.configPath, (t) => /live cameras/.test(t) && !/live cams/.test(t));

    const pane = page.getByRole('region', { name: 'location cameras' });
    await pane.getByRole('button', { name: 'Delete cameras' }).click();
    await expect(page.getByText('Really delete cameras from config?')).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectConfigFile(server.configPath, (t) => !/live cameras/.test(t));
  });
});
