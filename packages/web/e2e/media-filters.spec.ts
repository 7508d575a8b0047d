import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { StreamsList } from './pages/media-list-page.js';

/** One stream of each kind the toggles tell apart; the on-demand ones stay idle (waiting). */
const config = `${minimalConfig}
stream live1 {
  url test://?size=160x90&bitrate=100;
  static true;
}
stream broken {
  url tshttp://127.0.0.1:9/none.ts;
  static true;
}
stream archived {
  url udp://239.0.0.3:1234;
  title "Archive camera";
  dvr /tmp/sluice-e2e-dvr 1d;
}
stream encoded {
  url udp://239.0.0.4:1234;
  transcoder {
    audio {
      bitrate 64000;
    }
  }
}
stream empty {
  static true;
}
`;

test.use({ serverConfig: config });

test.beforeEach(async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
  await expect(new StreamsList(page).status('live1')).toHaveText('online', { timeout: 20_000 });
});

test('filters with their counts, mirrored in the URL so a link reproduces the view', async ({
  page,
  server,
}) => {
  const list = new StreamsList(page);
  await expect(list.matches).toHaveText('5');
  await expect(list.toggle('online')).toHaveAccessibleName('online 1');
  await expect(list.toggle('waiting')).toHaveAccessibleName('waiting 2');
  // A static stream without sources is "no sources defined": none of the three status toggles.
  await expect(list.toggle('error')).toHaveAccessibleName('error 1');
  await expect(list.status('empty')).toHaveText('no sources defined');
  await expect(list.toggle('with DVR')).toHaveAccessibleName('with DVR 1');
  await expect(list.toggle('transcoded')).toHaveAccessibleName('transcoded 1');

  await list.toggle('online').click();
  await expect.poll(() => list.names()).toEqual(['live1']);
  await expect(page).toHaveURL(/\?filter=online$/);

  // Status toggles exclude each other; DVR and transcoded add to them.
  await list.toggle('waiting').click();
  await expect(list.toggle('online')).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => list.names()).toEqual(['archived', 'encoded']);
  await list.toggle('with DVR').click();
  await expect.poll(() => list.names()).toEqual(['archived']);
  await expect(list.matches).toHaveText('1');
  await expect(page).toHaveURL(/\?filter=waiting&filter=dvr$/);
  await list.toggle('with DVR').click();
  await list.toggle('waiting').click();

  // The text filter searches names, titles and sources; the toggle counts follow it.
  await list.filter.fill('camera');
  await expect.poll(() => list.names()).toEqual(['archived']);
  await expect(list.toggle('waiting')).toHaveAccessibleName('waiting 1');
  await expect(list.toggle('online')).toHaveAccessibleName('online 0');
  await expect(page).toHaveURL(/\?query=camera$/);
  await list.filter.fill('nothing like this');
  await expect(list.noMatches).toBeVisible();
  await expect(list.matches).toHaveText('0');

  // A link reproduces the view.
  await page.goto(`${server.url}/admin?filter=error&query=br`);
  await expect(list.filter).toHaveValue('br');
  await expect(list.toggle('error')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => list.names()).toEqual(['broken']);
});

test('the local filter: published or no sources, and the active one clears', async ({ page }) => {
  const list = new StreamsList(page);
  const local = page.getByRole('group', { name: 'Local filter' });
  await local.getByRole('button', { name: 'no sources' }).click();
  await expect.poll(() => list.names()).toEqual(['empty']);
  await local.getByRole('button', { name: 'published' }).click();
  await expect(list.noMatches).toBeVisible();
  await local.getByRole('button', { name: 'published' }).click();
  await expect(list.matches).toHaveText('5');
});

test('a header click cycles ascending, descending, then config order', async ({ page }) => {
  const list = new StreamsList(page);
  const configOrder = ['live1', 'broken', 'archived', 'encoded', 'empty'];
  await expect.poll(() => list.names()).toEqual(configOrder);

  await list.header('Name').getByRole('button').click();
  await expect(list.header('Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => list.names()).toEqual(['archived', 'broken', 'empty', 'encoded', 'live1']);
  await list.header('Name').getByRole('button').click();
  await expect(list.header('Name')).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => list.names()).toEqual(['live1', 'encoded', 'empty', 'broken', 'archived']);
  await list.header('Name').getByRole('button').click();
  await expect(list.header('Name')).toHaveAttribute('aria-sort', 'none');
  await expect.poll(() => list.names()).toEqual(configOrder);

  // Runtime: streams that don't run have none, which sorts as infinite: last going up.
  await list.header('Runtime').getByRole('button').click();
  await expect.poll(async () => (await list.names()).slice(-2).sort()).toEqual(['archived', 'encoded']);
  // Clients: the idle on-demand streams report none, which sorts lowest (spec 000 §5); the running
  // ones tie at zero clients and keep config order.
  await list.header('Clients').getByRole('button').click();
  await expect(list.header('Runtime')).toHaveAttribute('aria-sort', 'none');
  await expect.poll(() => list.names()).toEqual(['archived', 'encoded', 'live1', 'broken', 'empty']);
});
