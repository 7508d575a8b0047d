import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

test.describe('console pages', () => {
  test.use({ serverConfig: `${minimalConfig}stream demo {\n  url test://?size=320x180;\n}\n` });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('"Enable statistics collection" reads as a warning, not as a button', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.open('/admin');
    // Shown while Pulse can't keep what it collects: a pulsedb under a file can't be made.
    await expect(shell.status.getByText('Collecting statistics')).toBeVisible();
    await expect(shell.status.getByText('Enable statistics collection')).toBeHidden();
    const saved = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pulsedb: '/dev/null/pulse' }),
    });
    expect(saved.ok).toBe(true);
    const warning = shell.status.getByText('Enable statistics collection');
    await expect(warning).toBeVisible();
    await expect(warning).toHaveText(/^⚠ Enable statistics collection$/);
    // A badge drew it in capitals on a filled pill, as buttons look; a warning is plain text.
    await expect(warning).toHaveCSS('text-transform', 'none');
    await expect(warning).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
    await expect(warning).toHaveCSS('cursor', 'auto');
    await expect(shell.status.getByRole('button')).toHaveCount(0);
  });

  test('History offers one sessions link at a time', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo/history`);
    const links = page.getByLabel('history').getByRole('link', { name: /sessions|report/ });
    await expect(links).toHaveText(['Hide sessions', 'Show report']);
    await page.getByRole('link', { name: 'Show report' }).click();
    await expect(page).toHaveURL(/report=true/);
    await expect(links).toHaveText(['Show sessions']);
    await page.getByRole('link', { name: 'Show sessions' }).click();
    await expect(page).toHaveURL(/report=false/);
    await page.getByRole('link', { name: 'Hide sessions' }).click();
    await expect(page).toHaveURL(/sessions=false/);
    await expect(links).toHaveText(['Show sessions']);
  });

  test('a stream that is not in the config says so once the config has loaded', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/nope`);
    await expect(page.getByRole('heading', { name: 'Stream nope not found' })).toBeVisible();
    await expect(page.getByText('Loading stream nope...')).toHaveCount(0);
    await page.getByRole('link', { name: 'Back to the media list' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('link', { name: 'demo' }).first()).toBeVisible();
  });
});
