import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

test.describe('stream clients', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\n`,
  });

  test('lists a real MPEG-TS client, and kill closes its session', async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/demo/clients`);
    await expect(page.getByText('No information about clients was recorded.')).toBeVisible({
      timeout: 20_000,
    });

    // A player held open on the stream's MPEG-TS output.
    const response = await fetch(`${server.url}/demo/mpegts`);
    expect(response.ok).toBe(true);
    const reader = response.body!.getReader();
    let received = 0;
    const ended = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return 'closed';
          received += value.length;
        }
      } catch {
        return 'closed';
      }
    })();

    const table = page.getByRole('table', { name: 'clients' });
    await expect(table.getByRole('cell', { name: 'mpegts', exact: true })).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => received).toBeGreaterThan(0);
    await table.getByRole('button', { name: 'kill' }).click();
    expect(await ended).toBe('closed');
    await expect(page.getByText('No information about clients was recorded.')).toBeVisible();
  });
});
