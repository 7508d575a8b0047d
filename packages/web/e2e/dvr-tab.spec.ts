import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { configBlock, DvrTab } from './pages/dvr-tab.js';

const HINT = 'No need to specify stream directory, it will be created automatically.';
const CACHE_TEXT =
  'Cache requested archive segments. Useful even if no local dvr defined, for proxied remote dvr.';

test.describe('DVR tab', () => {
  test.use({
    serverConfig:
      `${minimalConfig}dvr main {\n  root /tmp/sluice-e2e-dvr-main;\n}\n` +
      `stream demo {\n  url test://?size=160x90&bitrate=100;\n}\n` +
      `stream ext {\n  url test://?size=160x90&bitrate=100;\n  external_dvr;\n  dvr /tmp/sluice-e2e-dvr-ext 1d;\n}\n` +
      `live cams {\n}\nsource http://127.0.0.1:9 {\n}\n`,
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('a stream: path, limits, depth, replication and cache saved to the config file; Reset discards; clearing the path removes dvr', async ({
    page,
    server,
  }) => {
    const root = `${server.dir}/archive`;
    const tab = new DvrTab(page);
    await page.goto(`${server.url}/admin/standalone/demo/dvr`);
    await expect(tab.root.getByText(HINT)).toBeVisible();
    await expect(tab.field('Path')).toHaveAttribute('placeholder', 'Where archive is stored');
    await expect(tab.cache.getByText(CACHE_TEXT)).toBeVisible();
    await expect(tab.root.getByRole('link', { name: 'Global DVR configs' })).toHaveAttribute(
      'href',
      '/admin/dvrs',
    );
    await expect(tab.field('Global DVR config').locator('option')).toHaveText([
      'none: custom settings',
      'main',
    ]);
    // Nothing to limit before there is a path.
    await expect(tab.field('Archive depth')).toBeDisabled();
    await expect(tab.save).toBeDisabled();

    await tab.type('Path', root);
    await expect(tab.field('Archive depth')).toBeEnabled();

    // Each rule's message holds Save back until the value is right.
    await tab.type('Disk limit', '101');
    await expect(tab.root.getByText('Disk limit is a percent from 0 to 100.')).toBeVisible();
    await expect(tab.save).toBeDisabled();
    await tab.type('Disk limit', '90');
    await tab.type('Disk space', '10 gigs');
    await expect(
      tab.root.getByText("It's not correct size, good examples are 1024, 1Kb, 32gb, 50TB"),
    ).toBeVisible();
    await expect(tab.save).toBeDisabled();
    await tab.type('Disk space', '10gb');
    await tab.type('Archive depth', '1h30m');
    await expect(
      tab.root.getByText('Time string should contains only digits and time unit at the end (s, m, h, d, w)'),
    ).toBeVisible();
    await tab.type('Archive depth', '2h');
    await tab.root.getByRole('switch', { name: 'Replication' }).check();
    await tab.type('Replication port', '70000');
    await expect(tab.root.getByText('Replication port is 1 to 65535.')).toBeVisible();
    await expect(tab.save).toBeDisabled();
    await tab.type('Replication port', '8080');

    await tab.type('Cache path', '/tmp/sluice-e2e-ssd');
    await tab.type('Cache disk limit', '100g');
    await tab.type('Cache time limit', '1h');

    await tab.saveAndWait();
    await expect
      .poll(() => configBlock(server.configPath, 'stream demo'))
      .toContain(`dvr ${root} 2h 90% disk_space=10g dvr_replicate=true replication_port=8080;`);
    expect(await configBlock(server.configPath, 'stream demo')).toMatch(
      /cache \{\s*path \/tmp\/sluice-e2e-ssd;\s*disk_limit 100g;\s*time_limit 1h;\s*\}/,
    );

    // Reset drops this tab's edits, a half-typed bad value included; the file keeps what was saved.
    await tab.type('Archive depth', '3h');
    await tab.field('Replication port').fill('0');
    await expect(tab.root.getByText('Replication port is 1 to 65535.')).toBeVisible();
    await tab.reset.click();
    await expect(tab.field('Archive depth')).toHaveValue('2h');
    await expect(tab.field('Replication port')).toHaveValue('8080');
    await expect(tab.root.getByText('Replication port is 1 to 65535.')).toBeHidden();
    await expect(tab.save).toBeDisabled();
    await expect(tab.reset).toBeDisabled();
    expect(await configBlock(server.configPath, 'stream demo')).toContain(' 2h 90% ');

    // What was saved is what the tab reads after a reload.
    await page.reload();
    await expect(tab.field('Path')).toHaveValue(root);
    await expect(tab.field('Disk space')).toHaveValue('10G');
    await expect(tab.field('Archive depth')).toHaveValue('2h');
    await expect(tab.field('Cache disk limit')).toHaveValue('100G');

    // Clearing the path deletes the whole dvr config, limits and all; the cache stays.
    await tab.type('Path', '');
    await expect(tab.field('Archive depth')).toHaveValue('');
    await tab.saveAndWait();
    await expect.poll(() => configBlock(server.configPath, 'stream demo')).not.toContain('dvr ');
    expect(await configBlock(server.configPath, 'stream demo')).toContain('path /tmp/sluice-e2e-ssd;');
  });

  test('a location takes a global DVR config, a mirror its own path; an external archive is read-only', async ({
    page,
    server,
  }) => {
    const tab = new DvrTab(page);
    await page.goto(`${server.url}/admin/location/cams/dvr`);
    await expect(tab.cache).toBeVisible();
    await tab.field('Global DVR config').selectOption('main');
    // A global config has its own root: the path field goes.
    await expect(tab.field('Path')).toHaveCount(0);
    await tab.type('Archive depth', '1d');
    await tab.saveAndWait();
    await expect.poll(() => configBlock(server.configPath, 'live cams')).toContain('dvr @main 1d;');

    // Back to custom settings with no path: the dvr config goes.
    await tab.field('Global DVR config').selectOption('');
    await tab.saveAndWait();
    await expect.poll(() => configBlock(server.configPath, 'live cams')).not.toContain('dvr');

    // A mirror (position 0) has no cache settings.
    await page.goto(`${server.url}/admin/mirror/0/dvr`);
    await expect(tab.field('Path')).toBeVisible();
    await expect(tab.cache).toHaveCount(0);
    await tab.type('Path', `${server.dir}/mirrored`);
    await tab.saveAndWait();
    await expect
      .poll(() => configBlock(server.configPath, 'source http://127.0.0.1:9'))
      .toContain(`dvr ${server.dir}/mirrored;`);

    await page.goto(`${server.url}/admin/standalone/ext/dvr`);
    await expect(tab.field('Path')).toHaveValue('/tmp/sluice-e2e-dvr-ext');
    await expect(tab.field('Path')).toBeDisabled();
    await expect(tab.field('Archive depth')).toBeDisabled();
    await expect(tab.save).toHaveCount(0);
  });
});
