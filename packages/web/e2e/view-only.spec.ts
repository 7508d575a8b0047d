import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { ADMIN, expect, failedLoad, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LoginPage } from './pages/login-page.js';
import { SettingsPage } from './pages/settings-page.js';

const VIEWER = { login: 'watcher', password: 'look-only-pw' };

/** Every control of the console that changes something, by its accessible name. */
const WRITE_CONTROL = /^(save|delete|upload|add|disable|enable|restart|remove|kill|duplicate|paste)\b/i;

/** The page has drawn `ready`; then no control that writes may be on it. */
async function expectNoWriteControls(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: WRITE_CONTROL })).toHaveCount(0);
  await expect(page.getByRole('form', { name: /^Add / })).toHaveCount(0);
}

test.describe('a view-only login (view_auth)', () => {
  test.use({
    serverConfig:
      `${minimalConfig}view_auth ${VIEWER.login} ${VIEWER.password};\n` +
      `stream demo {\n  url test://?size=320x180;\n  title "Front door";\n}\nlive pub {\n}\n`,
  });

  test('sees the media list, a stream, a location and Settings, with read-only fields and nothing to save', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin(VIEWER);
    await shell.open('/admin');
    await expect(page.getByText('View only', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'demo', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'pub', exact: true })).toBeVisible();
    await expectNoWriteControls(page);

    await shell.open('/admin/standalone/demo');
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Front door');
    await expect(page.getByLabel('Title', { exact: true })).not.toBeEditable();
    await expect(page.getByLabel('Name', { exact: true })).not.toBeEditable();
    await expect(page.getByRole('radio', { name: 'on demand' })).toBeDisabled();
    await expectNoWriteControls(page);

    const tabs = page.getByRole('navigation', { name: 'stream tabs' });
    await tabs.getByRole('link', { name: 'Input' }).click();
    await expect(page.getByLabel('Source timeout', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Source timeout', { exact: true })).not.toBeEditable();
    await expectNoWriteControls(page);

    await tabs.getByRole('link', { name: 'Output' }).click();
    await expect(page.getByLabel('Max sessions', { exact: true })).not.toBeEditable();
    await expectNoWriteControls(page);

    await shell.open('/admin/location/pub');
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('pub');
    await expect(page.getByLabel('Name', { exact: true })).not.toBeEditable();
    await expectNoWriteControls(page);

    await shell.open('/admin/config');
    const settings = new SettingsPage(page);
    await expect(settings.field('HTTP ports')).toHaveValue(String(server.port));
    await expect(settings.field('HTTP ports')).not.toBeEditable();
    await expect(settings.field('Log level')).toBeDisabled();
    await expect(settings.download).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Config editor' })).toHaveCount(0);
    // The credentials are never sent to a view session: their fields are not shown at all.
    await expect(page.getByLabel('Admin UI username')).toHaveCount(0);
    await expectNoWriteControls(page);
  });
});

test.describe('Settings › Access', () => {
  // The refused save below is a 400 the console logs.
  test.use({ allowedConsoleErrors: [failedLoad(400)] });

  test('sets view-only credentials that then log in to a read-only console', async ({ page, server }) => {
    // Logged in through the form (not rememberLogin, whose stored login would outlive the logout).
    const shell = new ConsoleShell(page, server.url);
    const login = new LoginPage(page);
    await shell.open('/admin');
    await login.logIn(ADMIN.login, ADMIN.password);
    await expect(shell.status).toBeVisible();
    await shell.menu.getByText('Config').click();
    const settings = new SettingsPage(page);
    await expect(settings.field('Admin UI username')).toHaveValue(ADMIN.login);
    await expect(page.getByText('View only', { exact: true })).toHaveCount(0);

    // One login for both would leave the password alone deciding who may change things.
    await settings.field('View-only username').fill(ADMIN.login);
    await settings.field('View-only password').fill(VIEWER.password);
    await settings.save.click();
    await expect(page.getByText(/view_auth must have a login of its own/)).toBeVisible();

    await settings.field('View-only username').fill(VIEWER.login);
    await settings.saveAndWait();
    const text = await readFile(server.configPath, 'utf8');
    expect(text).toMatch(new RegExp(`^view_auth ${VIEWER.login} "?${VIEWER.password}"?;$`, 'm'));

    await shell.logout.click();
    await login.logIn(VIEWER.login, VIEWER.password);
    await expect(page.getByText('View only', { exact: true })).toBeVisible();
    await shell.open('/admin/config');
    await expect(settings.field('HTTP ports')).toHaveValue(String(server.port));
    await expect(settings.field('HTTP ports')).not.toBeEditable();
    await expect(settings.save).toHaveCount(0);
  });
});
