import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { SettingsPage } from './pages/settings-page.js';

test('downloads the config as host-timestamp.json and uploads it back whole', async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  const settings = new SettingsPage(page);
  await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rtmp: 1970, loglevel: 'debug' }),
  });
  await shell.rememberLogin();
  await shell.open('/admin/config');
  await expect(settings.field('RTMP port')).toHaveValue('1970');

  const download = await settings.downloadConfig();
  expect(download.suggestedFilename()).toMatch(/^127\.0\.0\.1-\d{8}-\d{6}\.json$/);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown>;
  expect(exported).toMatchObject({ rtmp: 1970, loglevel: 'debug', http: [server.port] });

  // The upload replaces the whole config: what the file leaves out is gone.
  const { loglevel: _dropped, ...rest } = exported;
  const file = join(server.dir, 'import.json');
  await writeFile(file, JSON.stringify({ ...rest, rtmp: 1971 }));
  await settings.uploadConfig(file);
  await page.getByRole('dialog', { name: 'Upload config' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(settings.saved).toBeVisible();
  await expect(settings.field('RTMP port')).toHaveValue('1971');
  await expect(settings.field('Log level')).toHaveValue('default');

  const text = await readFile(server.configPath, 'utf8');
  expect(text).toMatch(/^rtmp 1971;$/m);
  expect(text).not.toMatch(/loglevel/);
});
