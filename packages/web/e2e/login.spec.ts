import { ADMIN, expect, failedLoad, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LoginPage } from './pages/login-page.js';

test.describe('login', () => {
  test('logs in with good credentials and out again', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    const login = new LoginPage(page);
    await page.goto(`${server.url}/`);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(login.form).toBeVisible();

    await login.logIn(ADMIN.login, ADMIN.password);
    await expect(shell.status).toContainText('Version 0.1.0');
    // The login name marks this browser as logged in; the password is kept nowhere in it.
    expect(JSON.parse((await shell.storedLogin()) ?? '{}')).toEqual({ login: ADMIN.login });
    expect(await shell.storedText()).not.toContain(ADMIN.password);

    await shell.logout.click();
    await expect(login.form).toBeVisible();
    expect(await shell.storedLogin()).toBeNull();
    expect(
      (await page.context().cookies()).filter((c) => c.name === 'sluice_session' && c.value !== ''),
    ).toEqual([]);
  });

  test.describe('with a wrong password', () => {
    test.use({ allowedConsoleErrors: [failedLoad(403)] });

    test('says "Invalid login/password"', async ({ page, server }) => {
      const login = new LoginPage(page);
      await page.goto(`${server.url}/admin`);
      await login.logIn(ADMIN.login, 'wrong-password');
      await expect(login.invalid).toBeVisible();
      await expect(login.form).toBeVisible();
    });
  });

  test.describe('when the server fails', () => {
    test.use({ allowedConsoleErrors: [failedLoad(500)] });

    test('shows "Server error" with a Retry button that tries again', async ({ page, server }) => {
      const shell = new ConsoleShell(page, server.url);
      const login = new LoginPage(page);
      await shell.rememberLogin();
      await page.route('**/flussonic/api/server', (route) =>
        route.fulfill({ status: 500, body: '{"error":"boom"}' }),
      );
      await shell.open();
      await expect(login.serverError).toBeVisible();

      await page.unroute('**/flussonic/api/server');
      await login.retry.click();
      await expect(shell.status).toContainText('Version 0.1.0');
    });
  });

  test('a deep link loads the app, reusing the saved credentials', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open('/admin/standalone/foo');
    await expect(shell.status).toContainText('Version 0.1.0');
    await expect(page.getByRole('heading', { name: 'Stream foo not found' })).toBeVisible();
    await shell.menu.getByText('Config').click();
    await expect(page).toHaveURL(/\/admin\/config$/);
    await expect(page.getByLabel('HTTP ports', { exact: true })).toHaveValue(String(server.port));
  });
});
