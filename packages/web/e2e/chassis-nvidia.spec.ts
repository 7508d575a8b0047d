import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/**
 * Issue 23: the Chassis page and the Nvidia monitor on a normal server without a GPU. The server's
 * `chassis` flag is false (it drives no coder boards), so the menu is the normal one (spec 000 §2)
 * and the page opened by its address says there are no coders; nvidia_monitor on reads nvidia-smi,
 * which this machine lacks, and the Settings tab says 'no NVIDIA GPU'.
 */
test.use({ serverConfig: `${minimalConfig}nvidia_monitor;\n` });

test('a normal server: the menu has no Chassis, the page says it is not one, and no NVIDIA GPU is shown', async ({
  page,
  server,
}) => {
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}/admin`);
  const menu = page.getByRole('navigation', { name: 'main menu' });
  await expect(menu.getByRole('link')).toHaveText([
    'Media',
    'Pulse',
    'Config',
    'Cluster',
    'IPTV',
    'IP Cameras',
    'Upload debug',
  ]);

  await page.goto(`${server.url}/admin/chassis`);
  await expect(page.getByRole('heading', { name: 'Chassis' })).toBeVisible();
  await expect(page.getByText('This server is not a chassis: it has no coders.')).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Coder / })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Chassis' })).toHaveCount(0);

  await page.goto(`${server.url}/admin/config`);
  await expect(page.getByRole('switch', { name: 'Nvidia monitor' })).toBeChecked();
  await expect(page.getByLabel('NVIDIA GPUs')).toHaveText('no NVIDIA GPU');
});
