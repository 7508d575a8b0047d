import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { SettingsPage } from './pages/settings-page.js';

/** How many config delta polls a console has sent so far (it sends one each second). */
function deltaPolls(page: Page): () => number {
  let sent = 0;
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (payload === 'read_config_delta') sent++;
    }),
  );
  return () => sent;
}

/**
 * The answer to the first or second poll after a change carries it (the second when the first was
 * already on its way); one more poll may leave while the page draws it on a busy machine. Counted in
 * polls, not seconds: a loaded machine stretches the second, not the number of polls.
 */
const POLLS_TO_SHOW = 3;

test('a change saved in one browser shows in another within two polls', async ({
  page,
  server,
  openContext,
}) => {
  const first = new ConsoleShell(page, server.url);
  const other = await openContext();
  const second = new ConsoleShell(other.page, server.url);
  const [minePolls, theirPolls] = [deltaPolls(page), deltaPolls(other.page)];
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
  const theirsBefore = theirPolls();

  await expect(theirs.field('RTMP port')).toHaveValue('1940');
  await expect(theirs.field('Log level')).toHaveValue('notice');
  expect(theirPolls() - theirsBefore).toBeLessThanOrEqual(POLLS_TO_SHOW);
  // Nothing is flagged as changed on the other side: it is the server's value there.
  await expect(theirs.save).toBeDisabled();

  // And the other way round, with a change made outside any console.
  await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rtsp: 8554 }),
  });
  const pollsToShow = async (settings: SettingsPage, polls: () => number) => {
    const before = polls();
    await expect(settings.field('RTSP port')).toHaveValue('8554');
    return polls() - before;
  };
  const took = await Promise.all([pollsToShow(mine, minePolls), pollsToShow(theirs, theirPolls)]);
  expect(
    took.every((polls) => polls <= POLLS_TO_SHOW),
    `polls each console took: ${took}`,
  ).toBe(true);
});
