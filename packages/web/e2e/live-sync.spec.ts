import { expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { SettingsPage } from './pages/settings-page.js';

test('a change saved in one browser shows in another within 2 s', async ({ page, server, openContext }) => {
  const first = new ConsoleShell(page, server.url);
  const other = await openContext();
  const second = new ConsoleShell(other.page, server.url);
  for (const shell of [first, second]) {
    await shell.rememberLogin();
    await shell.open('/admin/config');
  }
  const mine = new SettingsPage(page);
  const theirs = new SettingsPage(other.page);
  await expect(theirs.field('RTMP port')).toHaveValue('');

  await mine.field('RTMP port').fill('1940');
  await mine.field('Log level').selectOption('notice');
  await mine.saveAndWait();

  await expect(theirs.field('RTMP port')).toHaveValue('1940', { timeout: 2000 });
  await expect(theirs.field('Log level')).toHaveValue('notice', { timeout: 2000 });
  // Nothing is flagged as changed on the other side: it is the server's value there.
  await expect(theirs.save).toBeDisabled();

  // And the other way round, with a change made outside any console.
  await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rtsp: 8554 }),
  });
  await expect(mine.field('RTSP port')).toHaveValue('8554', { timeout: 2000 });
  await expect(theirs.field('RTSP port')).toHaveValue('8554', { timeout: 2000 });
});
