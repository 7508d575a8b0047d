import { ADMIN, expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LoginPage } from './pages/login-page.js';

/** The console's reconnect period (spec 000 §9): a retried socket would show within three of them. */
const RECONNECT_MS = 2000;

test.describe('logout', () => {
  test.use({ serverConfig: `${minimalConfig}stream secretcam {\n  url test://?size=320x180;\n}\n` });

  test('Back after Logout shows the login form, nothing of the config, and no socket is retried', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    const login = new LoginPage(page);
    await shell.open('/admin');
    await login.logIn(ADMIN.login, ADMIN.password);
    await page.getByRole('link', { name: 'secretcam' }).first().click();
    await expect(page).toHaveURL(/\/admin\/standalone\/secretcam$/);
    await expect(page.getByRole('heading', { name: 'secretcam' })).toBeVisible();
    await shell.menu.getByText('Config').click();
    await expect(page).toHaveURL(/\/admin\/config$/);

    await shell.logout.click();
    await expect(login.form).toBeVisible();

    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goBack();
    await expect(login.form).toBeVisible();
    await expect(page.getByText('secretcam')).toHaveCount(0);
    await expect(shell.offline).toHaveCount(0);
    await expect(shell.menu).toHaveCount(0);
    // A negative: no events socket is opened within three reconnect periods of the Back.
    await expect(page.waitForEvent('websocket', { timeout: 3 * RECONNECT_MS })).rejects.toThrow();
    expect(sockets).toEqual([]);
  });

  test('a session ended elsewhere stops the events socket and shows the login form', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    const login = new LoginPage(page);
    // Through the form: the shell's remembered login would come back with the reload.
    await shell.open('/admin/standalone/secretcam');
    await login.logIn(ADMIN.login, ADMIN.password);
    await expect(page.getByRole('heading', { name: 'secretcam' })).toBeVisible();

    // Logging out through the API ends this browser's session cookie on the server.
    await page.evaluate(() =>
      fetch('/admin/logout', { method: 'POST', headers: { 'x-requested-with': 'sluice' } }),
    );
    await expect(login.form).toBeVisible();
    await expect(page.getByText('secretcam')).toHaveCount(0);
    await expect(page.waitForEvent('websocket', { timeout: 3 * RECONNECT_MS })).rejects.toThrow();
  });
});
