import { expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { SettingsPage } from './pages/settings-page.js';

// Chromium logs each refused websocket connection while the server is down: the fixture knows the
// test stopped it, so those are not errors of the console; any other error still fails the test.
test('shows the offline message while the server is down and recovers when it returns', async ({
  page,
  server,
}) => {
  const shell = new ConsoleShell(page, server.url);
  const settings = new SettingsPage(page);
  await shell.rememberLogin();
  await shell.open('/admin/config');
  await expect(shell.status).toBeVisible();
  await expect(shell.offline).toBeHidden();

  await server.stop();
  await expect(shell.offline).toBeVisible();

  // A change made while this console was away arrives with the whole config on reconnect.
  await server.restart();
  await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rtmp: 1950 }),
  });
  await expect(shell.offline).toBeHidden();
  await expect(shell.status).toContainText('Version 0.1.0');
  await expect(settings.field('RTMP port')).toHaveValue('1950');
});
