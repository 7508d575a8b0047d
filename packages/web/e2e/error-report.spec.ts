import { expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

test.use({ allowedConsoleErrors: [/e2e (boom|rejection)/] });

test('the console reports its uncaught errors and rejections to the server', async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
  await expect(shell.status).toBeVisible();

  const stored = page.waitForRequest((r) => r.url().endsWith('/flussonic/api/error/store'));
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('e2e boom');
    });
    void Promise.reject(new Error('e2e rejection'));
  });
  const request = await stored;
  expect((await request.response())?.status()).toBe(200);
  const reports = request.postDataJSON() as { type: string; message: string; page: string }[];
  expect(reports).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ type: 'error', message: 'Error: e2e boom', page: `${server.url}/admin` }),
      expect.objectContaining({ type: 'unhandledrejection', message: 'Error: e2e rejection' }),
    ]),
  );
});
