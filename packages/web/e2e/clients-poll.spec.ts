import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/** Spec 001 §7: 'sessions?name={name}' polled each second while the clients tab is open, then not. */
test.describe('clients poll', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url test://?size=160x90&bitrate=100;\n}\n`,
  });

  test('asks each second while the Clients tab is open, and stops when it closes', async ({
    page,
    server,
  }) => {
    const sent: string[] = [];
    page.on('websocket', (socket) => {
      if (socket.url().includes('/flussonic/api/events'))
        socket.on('framesent', ({ payload }) => sent.push(String(payload)));
    });
    const count = (command: string) => sent.filter((frame) => frame === command).length;
    const asks = () => count('sessions?name=demo');

    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/demo/clients`);
    await expect(page.getByText('No information about clients was recorded.')).toBeVisible({
      timeout: 20_000,
    });
    await expect.poll(asks).toBeGreaterThanOrEqual(3);

    await page
      .getByRole('navigation', { name: 'stream tabs' })
      .getByText('Overview', { exact: true })
      .click();
    await expect(page).toHaveURL(/\/demo$/);
    const asked = asks();
    // The config delta poll goes on each second: three more of them and not one more sessions ask.
    const deltas = count('read_config_delta');
    await expect.poll(() => count('read_config_delta')).toBeGreaterThanOrEqual(deltas + 3);
    expect(asks()).toBe(asked);

    await page.getByRole('navigation', { name: 'stream tabs' }).getByText('Clients', { exact: true }).click();
    await expect.poll(asks).toBeGreaterThan(asked);
  });
});
