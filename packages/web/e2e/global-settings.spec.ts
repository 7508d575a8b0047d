import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { SettingsPage } from './pages/settings-page.js';

test.describe('global settings', () => {
  test.beforeEach(async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open('/admin/config');
    await expect(new SettingsPage(page).field('HTTP ports')).toHaveValue(String(server.port));
  });

  test('saves edited settings into the config file', async ({ page, server }) => {
    const settings = new SettingsPage(page);
    await expect(settings.save).toBeDisabled();

    await settings.field('HTTP ports').fill(`${server.port}, x, 18443`);
    await settings.field('RTMP port').fill('19a36');
    await settings.field('Log level').selectOption('debug');
    await settings.field('Total bandwidth').fill('100');
    await settings.field('Session log path').fill('/var/log/sluice-sessions');
    await settings.webScript(0).prefix.fill('hook');
    await settings.webScript(0).path.fill('/opt/hook.lua');
    await settings.webScript(0).extra.fill('mode=fast');
    await expect(settings.webScript(1).prefix).toBeVisible();
    await expect(settings.field('RTMP port')).toHaveValue('1936');
    await settings.saveAndWait();
    await expect(settings.save).toBeDisabled();

    const text = await readFile(server.configPath, 'utf8');
    expect(text).toMatch(new RegExp(`^http ${server.port} 18443;$`, 'm'));
    expect(text).toMatch(/^rtmp 1936;$/m);
    expect(text).toMatch(/^loglevel debug;$/m);
    expect(text).toMatch(/^total_bandwidth 100m;$/m);
    expect(text).toMatch(/^session_log \/var\/log\/sluice-sessions;$/m);
    expect(text).toMatch(/^web_script hook \/opt\/hook\.lua mode="?fast"?;$/m);

    // After a reload the console shows what the server holds.
    await page.reload();
    await expect(settings.field('RTMP port')).toHaveValue('1936');
    await expect(settings.field('HTTP ports')).toHaveValue(`${server.port}, 18443`);
    await expect(settings.field('Total bandwidth')).toHaveValue('100');
    await expect(settings.webScript(0).path).toHaveValue('/opt/hook.lua');
  });

  test('warns when every HTTP port is removed and keeps Save off while a field is invalid', async ({
    page,
  }) => {
    const settings = new SettingsPage(page);
    await expect(settings.noHttpPortsWarning).toBeHidden();
    await settings.field('HTTP ports').fill('');
    await expect(settings.noHttpPortsWarning).toBeVisible();
    await settings.field('HTTP ports').fill('8080');
    await expect(settings.noHttpPortsWarning).toBeHidden();

    await settings.field('RTMP port').fill('70000');
    await expect(page.getByText('a port is 1 to 65535')).toBeVisible();
    await expect(settings.save).toBeDisabled();
    await settings.field('RTMP port').fill('1935');
    await expect(settings.save).toBeEnabled();

    await settings.field('Admin UI username').fill('');
    await expect(page.getByText('Admin UI username is required')).toBeVisible();
    await expect(settings.save).toBeDisabled();
  });

  test('drops an emptied web script row on blur and keeps one empty row at the bottom', async ({ page }) => {
    const settings = new SettingsPage(page);
    await settings.webScript(0).prefix.fill('a');
    await settings.webScript(0).path.fill('/a');
    await settings.webScript(1).prefix.fill('b');
    await settings.webScript(1).path.fill('/b');
    await expect(settings.webScript(2).prefix).toHaveValue('');

    await settings.webScript(0).path.fill('');
    await settings.webScript(0).prefix.fill('');
    await settings.field('RTMP port').focus();
    await expect(settings.webScript(0).prefix).toHaveValue('b');
    await expect(settings.webScript(1).prefix).toHaveValue('');
    await expect(settings.webScript(2).prefix).toBeHidden();
  });

  test('a new admin password is saved and this browser stays logged in with it', async ({ page, server }) => {
    const settings = new SettingsPage(page);
    const shell = new ConsoleShell(page, server.url);
    await settings.field('Admin UI password').fill('a-new-secret-pw');
    await settings.saveAndWait();
    expect(await readFile(server.configPath, 'utf8')).toMatch(/^edit_auth admin a-new-secret-pw;$/m);
    // The old password's session ended; the console logged in again with the new one and keeps no password.
    expect(await shell.storedText()).not.toContain('a-new-secret-pw');

    await page.reload();
    await expect(shell.status).toContainText('Version 0.1.0');
    await expect(settings.field('Admin UI password')).toHaveValue('a-new-secret-pw');
  });
});
