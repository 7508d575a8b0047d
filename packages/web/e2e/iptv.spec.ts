import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, type Locator, type Page } from '@playwright/test';
import { type RunningServer, startServer, waitFor } from '../../server/test/harness.js';
import { expect, failedLoad, minimalConfig, watchConsole } from './fixtures.js';
import { expectNoSeriousViolations } from './pages/axe.js';
import { ConsoleShell } from './pages/console-shell.js';

/**
 * The IPTV page (spec 002 §2-§4, issue 24) against the real server: one server for the file, its
 * IPTV plugin first not configured, then enabled from the page; the tests after the first enable it
 * through the API if it is not yet, so each can run alone.
 */
const VIEWER = { login: 'viewer', password: 'look-only-pw' };
const CONFIG =
  `${minimalConfig}view_auth ${VIEWER.login} ${VIEWER.password};\n` +
  `stream news {\n  url publish://;\n  title "News 24";\n}\n` +
  `stream sports {\n  url publish://;\n  auth {\n    url http://127.0.0.1:9/check;\n  }\n}\n`;

let server: RunningServer;
const test = base.extend<{ server: RunningServer; allowedConsoleErrors: RegExp[] }>({
  allowedConsoleErrors: [[], { option: true }],
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
  server: async ({}, use) => use(server),
  page: async ({ page, allowedConsoleErrors }, use) => {
    const errors = watchConsole(page, allowedConsoleErrors);
    await use(page);
    expect(errors(), 'console errors in the page').toEqual([]);
  },
});

test.beforeAll(async () => {
  server = await startServer({ config: CONFIG });
});
test.afterAll(async () => {
  await server?.cleanup();
});

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function readConfig(): Promise<Record<string, any>> {
  return (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
}

/** The plugin enabled at its default place, through the config, when an earlier test did not. */
async function ensureEnabled(): Promise<void> {
  if ((await readConfig()).plugins?.iptv?.database) return;
  const answer = await server.api(
    '/flussonic/api/modify_config',
    json({ plugins: { iptv: { database: 'iptv/iptv.db' } } }),
  );
  expect(answer.status, await answer.clone().text()).toBe(200);
}

async function createUser(user: { name: string; email: string }): Promise<{ id: number; key: string }> {
  const answer = await server.api('/tv/api/user_create', json(user));
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { user: { id: number; key: string } }).user;
}

/** Opens /admin/iptv as `credentials` and reveals the plugin. */
async function openIptv(page: Page, credentials?: { login: string; password: string }): Promise<void> {
  await new ConsoleShell(page, server.url).rememberLogin(credentials);
  await page.goto(`${server.url}/admin/iptv`);
  await page.getByRole('button', { name: 'IPTV plugin settings' }).click();
}

const userRow = (page: Page, name: string): Locator =>
  page.getByRole('row', { name: `user ${name}`, exact: true });
const usersTable = (page: Page) => page.getByRole('table', { name: 'IPTV users' });

test.describe('not configured', () => {
  test.use({ allowedConsoleErrors: [failedLoad(400)] });

  test("a path that can't be opened says so and changes nothing; Enable IPTV with the suggested path creates the store", async ({
    page,
  }) => {
    test.skip(Boolean((await readConfig()).plugins?.iptv), 'another test enabled it first');
    await openIptv(page);
    await expect(page.getByText('IPTV is not configured')).toBeVisible();
    const path = page.getByLabel('Database path');
    await expect(page.getByText(/specify where Flussonic should store data/)).toBeVisible();
    // The suggestion: an sqlite file under the server's own folder.
    await expect(path).toHaveValue(/\/iptv\/iptv\.db$/);
    const suggested = await path.inputValue();

    await path.fill('/dev/null/iptv/users.db');
    await page.getByRole('button', { name: 'Enable IPTV' }).click();
    await expect(page.getByText(/^unable to access database on path/)).toBeVisible();
    expect((await readConfig()).plugins?.iptv).toBeUndefined();
    await expect(page.getByText('IPTV is not configured')).toBeVisible();

    await path.fill(suggested);
    await page.getByRole('button', { name: 'Enable IPTV' }).click();
    await expect(page.getByRole('region', { name: 'IPTV streams' })).toBeVisible();
    await expect(usersTable(page)).toBeVisible();
    expect((await readConfig()).plugins?.iptv?.database).toBe(suggested);
    expect(existsSync(suggested) || existsSync(join(server.dir, suggested))).toBe(true);
  });
});

test("a configured store that can't be opened shows the error on the path field; another path fixes it", async ({
  browser,
}) => {
  // A config written by hand (not through the console's check) naming a path under a file.
  const broken = await startServer({
    config: `${minimalConfig}plugin iptv {\n  database /dev/null/iptv.db;\n}\n`,
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = watchConsole(page, []);
  try {
    await new ConsoleShell(page, broken.url).rememberLogin();
    await page.goto(`${broken.url}/admin/iptv`);
    await page.getByRole('button', { name: 'IPTV plugin settings' }).click();
    const path = page.getByLabel('Database path');
    await expect(path).toHaveValue('/dev/null/iptv.db');
    await expect(page.getByText(/^unable to access database on path \/dev\/null\/iptv\.db/)).toBeVisible();
    await expect(page.getByText('IPTV is not configured')).toHaveCount(0);
    await path.fill('iptv.db');
    await page.getByRole('button', { name: 'Enable IPTV' }).click();
    await expect(page.getByRole('table', { name: 'IPTV users' })).toBeVisible();
    expect(existsSync(join(broken.dir, 'iptv.db'))).toBe(true);
    expect(errors()).toEqual([]);
  } finally {
    await context.close();
    await broken.cleanup();
  }
});

test('a stream switched on moves to Enabled with meta.iptv and the local auth url; a user made here gets a playlist that lists it with their token', async ({
  page,
}) => {
  await ensureEnabled();
  await openIptv(page);
  const enabled = page.getByRole('region', { name: 'Enabled streams' });
  const disabled = page.getByRole('region', { name: 'Disabled streams' });
  await expect(disabled.getByRole('switch', { name: 'IPTV news' })).toBeVisible();
  await disabled.getByRole('switch', { name: 'IPTV news' }).click();
  await expect(enabled.getByRole('switch', { name: 'IPTV news' })).toBeChecked();
  await disabled.getByRole('switch', { name: 'IPTV sports' }).click();
  await expect(enabled.getByRole('switch', { name: 'IPTV sports' })).toBeChecked();
  const streams = await waitFor(async () => {
    const config = await readConfig();
    return config.streams.sports.meta?.iptv === true ? config.streams : undefined;
  });
  expect(streams.news.meta.iptv).toBe(true);
  expect(streams.news.auth.url).toBe(`http://127.0.0.1:${server.port}/tv/auth`);
  // An auth url the stream had is kept.
  expect(streams.sports.auth.url).toBe('http://127.0.0.1:9/check');

  // The filter narrows the list by name or title.
  await page.getByLabel('Filter streams').fill('news');
  await expect(enabled.getByRole('switch')).toHaveCount(1);
  await page.getByLabel('Filter streams').fill('');

  const save = page.getByRole('button', { name: 'save', exact: true });
  await page.getByLabel('New user name').fill('alice');
  await expect(save).toBeDisabled();
  await page.getByLabel('New user email').fill('alice@example.com');
  await page.getByLabel('Max sessions').fill('2');
  await save.click();
  const row = userRow(page, 'alice');
  await expect(row.getByLabel('token of alice')).toHaveText(/^[0-9a-f]{32}$/);
  const key = await row.getByLabel('token of alice').innerText();
  await expect(row.getByLabel('max sessions of alice')).toHaveValue('2');

  const hls = await row.getByRole('link', { name: 'HLS playlist of alice' }).getAttribute('href');
  expect(hls).toMatch(new RegExp(`/tv/playlists/\\d+\\.m3u\\?key=${key}$`));
  const m3u = await (await page.request.get(hls!)).text();
  expect(m3u).toContain('#EXTM3U');
  expect(m3u).toContain(`/news/index.m3u8?token=${key}`);
  expect(m3u).toContain('tvg-name="News 24"');
  const ts = await row.getByRole('link', { name: 'MPEG-TS playlist of alice' }).getAttribute('href');
  expect(ts).toMatch(/&type=mpegts$/);
  expect(await (await page.request.get(ts!)).text()).toContain(`/news/mpegts?token=${key}`);
  // The configured page, with its switches, table and a user, passes axe (issue 17's rules).
  await expectNoSeriousViolations(page, 'IPTV, configured');

  // Switched off: back to Disabled, the marker and the local auth url gone, out of the playlist.
  await enabled.getByRole('switch', { name: 'IPTV news' }).click();
  await expect(disabled.getByRole('switch', { name: 'IPTV news' })).not.toBeChecked();
  const news = await waitFor(async () => {
    const config = await readConfig();
    return config.streams.news.meta?.iptv === undefined ? config.streams.news : undefined;
  });
  expect(news.auth?.url).toBeUndefined();
  expect(await (await page.request.get(hls!)).text()).not.toContain('/news/');
});

test('a user edit is saved 1 s after typing stops (a reload shows it); remove takes the user away', async ({
  page,
}) => {
  await ensureEnabled();
  const { id } = await createUser({ name: 'bob', email: 'bob@example.com' });
  await openIptv(page);
  const updates: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/tv/api/user_update')) updates.push(request.postData() ?? '');
  });
  const name = userRow(page, 'bob').getByLabel('name of bob');
  await name.click();
  await name.press('End');
  // Typed key by key, as an operator types: saved once typing stops, not at each keystroke.
  await name.pressSequentially(' marley', { delay: 50 });
  await waitFor(async () => {
    const answer = (await (await server.api(`/tv/api/users?q=marley`)).json()) as { users: { id: number }[] };
    return answer.users.some((u) => u.id === id);
  });
  // The browser's report of its request may reach this process after the server has answered it.
  await expect.poll(() => updates.length).toBeGreaterThanOrEqual(1);
  expect(
    updates.length,
    'one save for a burst of typing (a slow machine may split it in two)',
  ).toBeLessThanOrEqual(2);
  expect(JSON.parse(updates.at(-1)!)).toMatchObject({ id, name: 'bob marley', email: 'bob@example.com' });
  await page.reload();
  await page.getByRole('button', { name: 'IPTV plugin settings' }).click();
  await expect(userRow(page, 'bob marley').getByLabel('name of bob marley')).toHaveValue('bob marley');

  await userRow(page, 'bob marley').getByRole('button', { name: 'remove bob marley' }).click();
  await expect(userRow(page, 'bob marley')).toHaveCount(0);
  const left = (await (await server.api(`/tv/api/users?q=marley`)).json()) as { users: unknown[] };
  expect(left.users).toEqual([]);
});

test('users come 30 at a time; the next 30 when the view nears the bottom', async ({ page }) => {
  await ensureEnabled();
  for (let n = 1; n <= 40; n++) await createUser({ name: `pager ${n}`, email: `pager${n}@example.com` });
  await openIptv(page);
  await page.getByLabel('Filter users').fill('pager');
  const rows = usersTable(page).getByRole('row', { name: /^user pager / });
  await expect(rows).toHaveCount(30);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(rows).toHaveCount(40);
  await expect(rows.last()).toHaveAttribute('aria-label', 'user pager 40');
});

test('a view-only login sees streams and users read-only', async ({ page }) => {
  await ensureEnabled();
  await createUser({ name: 'carol', email: 'carol@example.com' });
  await openIptv(page, VIEWER);
  await expect(page.getByRole('switch', { name: 'IPTV news' })).toBeDisabled();
  await page.getByLabel('Filter users').fill('carol');
  await expect(userRow(page, 'carol').getByLabel('name of carol')).not.toBeEditable();
  await expect(page.getByRole('button', { name: /^(save|remove|enable)/i })).toHaveCount(0);
  await expect(page.getByLabel('New user name')).toHaveCount(0);
});
