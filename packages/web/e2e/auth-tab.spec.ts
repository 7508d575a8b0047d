import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, expectPlaying, StreamPage } from './pages/stream-page.js';

test.describe('auth tab', () => {
  test.use({
    serverConfig:
      `${minimalConfig}auth_backend paid {\n  allow token gold;\n}\nstream demo {\n  url test://?size=320x180&bitrate=300;\n}\nlive cams {\n}\n` +
      // Its backend is unreachable: every viewer is refused.
      `stream locked {\n  url test://?size=160x90&bitrate=100;\n  static true;\n  auth {\n    url http://127.0.0.1:9/check;\n  }\n}\n`,
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('a stream: custom backend, extra, domains, country limit and DRM are saved to the config file', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/standalone/demo/auth`);
    const tab = page.getByTestId('media-auth');
    const stream = new StreamPage(page);
    await expect(tab).toBeVisible();
    await expect(stream.save).toBeDisabled();

    await tab.getByLabel('Authentication type').selectOption('custom');
    await expect(tab.getByText('Backend URL is required')).toBeVisible();
    await expect(stream.save).toBeDisabled();
    await tab.getByLabel('Backend URL', { exact: true }).fill('http://127.0.0.1:9/demo-check');
    await tab.getByLabel('key', { exact: true }).first().fill('site');
    await tab.getByLabel('value', { exact: true }).first().fill('12');
    await tab.getByLabel('Allowed domains').fill('example.com tv.example.com');

    // Each country choice clears the other list; a code that is not two letters holds Save back.
    await tab.getByRole('radio', { name: 'whitelist' }).check();
    await tab.getByLabel('Allowed countries', { exact: true }).fill('nl, be');
    await tab.getByRole('radio', { name: 'blacklist' }).check();
    await expect(tab.getByLabel('Allowed countries', { exact: true })).toHaveCount(0);
    await expect(tab.getByLabel('Disallowed countries')).toHaveValue('');
    await tab.getByLabel('Disallowed countries').fill('rus');
    await expect(tab.getByText(/A country code is two letters/)).toBeVisible();
    await expect(stream.save).toBeDisabled();
    await tab.getByLabel('Disallowed countries').fill('ru by');

    // A vendor's keys and meta.drm_id go when the vendor changes; keyos is stored, not applied here.
    await tab.getByLabel('DRM vendor').selectOption('keyos');
    await tab.getByLabel('DRM ID', { exact: true }).fill('old-id');
    await tab.getByLabel('User key', { exact: true }).fill('uk1');
    await expect(page.getByLabel('DRM not applied')).toContainText('keyos');
    await tab.getByLabel('DRM vendor').selectOption('aes128');
    await expect(tab.getByLabel('DRM ID', { exact: true })).toHaveValue('');
    await expect(tab.getByLabel('User key', { exact: true })).toHaveCount(0);
    // aes128 is applied by this server: no note.
    await expect(page.getByLabel('DRM not applied')).toHaveCount(0);
    await tab.getByLabel('DRM ID', { exact: true }).fill('d2');
    await tab.getByLabel('Key server', { exact: true }).fill('http://keys.example/key');

    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (text) => text.includes('vendor aes128'));
    const text = await readFile(server.configPath, 'utf8');
    expect(text).toContain('url http://127.0.0.1:9/demo-check');
    expect(text).toMatch(/extra\s*\{\s*site "?12"?;/);
    expect(text).toContain('domains example.com tv.example.com');
    expect(text).toContain('disallowed_countries RU BY');
    expect(text).not.toContain('allowed_countries NL');
    expect(text).toContain('keyserver http://keys.example/key');
    expect(text).toContain('drm_id d2');
    expect(text).not.toContain('old-id');
    expect(text).not.toContain('uk1');

    // Back to none: url and extra go; the tab reads the saved state after a reload.
    await tab.getByLabel('Authentication type').selectOption('none');
    await expect(tab.getByLabel('Backend URL', { exact: true })).toHaveCount(0);
    await stream.saveAndWait();
    await expectConfigFile(
      server.configPath,
      (t) => !t.includes('127.0.0.1:9/demo-check') && !t.includes('site'),
    );
    await page.reload();
    await expect(tab.getByLabel('Authentication type')).toHaveValue('none');
    await expect(tab.getByRole('radio', { name: 'blacklist' })).toBeChecked();
    await expect(tab.getByLabel('Disallowed countries')).toHaveValue('RU, BY');
    await expect(tab.getByLabel('DRM vendor')).toHaveValue('aes128');
  });

  test('a stream offers IPTV with the local auth url; a location has no IPTV and saves a secure token', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/standalone/demo/auth`);
    const tab = page.getByTestId('media-auth');
    // custom with a named auth backend of the Auth backends page.
    await tab.getByLabel('Authentication type').selectOption('custom');
    await tab.getByLabel('Auth backend', { exact: true }).selectOption('paid');
    await expect(tab.getByLabel('Backend URL', { exact: true })).toHaveValue('auth://paid');
    await new StreamPage(page).saveAndWait();
    await expectConfigFile(server.configPath, (t) => /stream demo \{[\s\S]*url auth:\/\/paid;/.test(t));

    await tab.getByLabel('Authentication type').selectOption('iptv');
    await expect(tab.getByLabel('Auth URL')).toHaveValue(`http://127.0.0.1:${server.port}/tv/auth`);

    await page.goto(`${server.url}/admin/location/cams/auth`);
    const type = tab.getByLabel('Authentication type');
    await expect(type.locator('option')).toHaveText(['none', 'custom', 'stalker', 'securetoken']);
    await type.selectOption('securetoken');
    await tab.getByLabel('Secure token key').fill('k3y');
    await new StreamPage(page).saveAndWait();
    await expectConfigFile(server.configPath, (t) => /live cams \{[\s\S]*url securetoken:\/\/k3y/.test(t));

    await type.selectOption('stalker');
    await tab.getByLabel('Stalker portal host').fill('portal.example');
    await new StreamPage(page).saveAndWait();
    await expectConfigFile(server.configPath, (t) =>
      t.includes('url http://portal.example/stalker_portal/server/api/chk_flussonic_tmp_link.php'),
    );
  });

  test('the live player and the play modal play a stream that refuses other viewers, with the admin token', async ({
    page,
    server,
  }) => {
    await expect
      .poll(async () => (await fetch(`${server.url}/locked/index.m3u8`)).status, { timeout: 30_000 })
      .toBe(403);
    await page.goto(`${server.url}/admin/standalone/locked`);
    const stream = new StreamPage(page);
    await expectPlaying(stream.video);
    // What the operator copies does not carry the admin token.
    await expect(page.getByLabel('URL', { exact: true })).not.toHaveValue(/token=/);
    await expect(page.getByLabel('HTML code')).not.toHaveValue(/token=/);

    // The play modal of the media list too.
    await page.goto(`${server.url}/admin`);
    await page.getByRole('button', { name: 'Play locked' }).click();
    await expectPlaying(page.getByRole('dialog').getByLabel('player'));
  });
});
