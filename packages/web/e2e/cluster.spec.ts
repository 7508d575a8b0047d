import { test as base, type Page } from '@playwright/test';
import { startClusterOfThree, CLUSTER_KEY, type ClusterOfThree, VIEWER } from './cluster-servers.js';
import { expect, watchConsole } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/**
 * The cluster pages (spec 002 §2) against three real servers that poll each other (cluster-servers.ts),
 * shared by the whole file and opened on A. The peer that is stopped goes last.
 */
let cluster: ClusterOfThree;

const test = base.extend({
  page: async ({ page }, use) => {
    const errors = watchConsole(page, []);
    await use(page);
    expect(errors(), 'console errors in the page').toEqual([]);
  },
});
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  cluster = await startClusterOfThree();
});
test.afterAll(async () => {
  await cluster?.stop();
});

async function openAs(page: Page, path: string, credentials?: typeof VIEWER) {
  const shell = new ConsoleShell(page, cluster.a.url);
  await shell.rememberLogin(credentials);
  await shell.open(path);
}

const servers = (page: Page) => page.getByRole('table', { name: 'Servers' });
/** The cells of a server's row, as text, in column order. */
const cellsOf = (page: Page, name: string) =>
  servers(page).getByRole('row', { name, exact: true }).getByRole('cell');

const readPeers = async () => {
  const config = (await (await cluster.a.api('/flussonic/api/read_config')).json()) as {
    peers?: Record<string, { name?: string; port?: number }>;
  };
  return config.peers ?? {};
};

test('Overview shows this server and its peers with live figures', async ({ page }) => {
  await openAs(page, '/admin/cluster');
  const { a, b, c } = cluster;
  await expect(servers(page).getByRole('columnheader')).toHaveText([
    'Host',
    'CPU',
    'Mem',
    'Clients',
    'Streams',
    'Input bitrate',
    'Output bitrate',
    'Load',
    'Version',
    'Uptime',
    'Last update',
  ]);
  // This server: persistent, its http port, no peer marker; Load is a percent of its total_bandwidth.
  await expect(cellsOf(page, 'sluice-a').first()).toHaveText(`*sluice-a:${a.port}`);
  await expect(cellsOf(page, 'sluice-a').nth(7)).toHaveText(/^\d+%$/);
  // B runs bcast (and shared): its figures are B's, measured, as A last polled them.
  await expect(async () => {
    await page.reload();
    const row = cellsOf(page, '127.0.0.2');
    await expect(row.first()).toHaveText(`*127.0.0.2:${b.port}peer`, { timeout: 2000 });
    await expect(row.nth(4)).toHaveText('2', { timeout: 2000 });
    await expect(row.nth(5)).toHaveText(/^[1-9]\d* kbit\/s$/, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  const rowB = cellsOf(page, '127.0.0.2');
  await expect(rowB.nth(1)).toHaveText(/^\d+%$/);
  await expect(rowB.nth(7)).toHaveText('-');
  await expect(rowB.nth(8)).toHaveText(/^\d+\.\d+\.\d+/);
  await expect(rowB.nth(9)).toHaveText(/^\d\d:\d\d:\d\d$/);
  await expect(rowB.nth(10)).toHaveText(/^\d\d:\d\d:\d\d$/);
  await expect(cellsOf(page, '127.0.0.3').first()).toHaveText(`*127.0.0.3:${c.port}peer`);
  // The origin of a mirror that is not a peer: not persistent, with why it can't be read.
  await expect(cellsOf(page, '127.0.0.9').first()).toHaveText(/^-127\.0\.0\.9.+/);
  await expect(servers(page).getByRole('row', { name: '127.0.0.9' }).getByRole('alert')).not.toBeEmpty();
});

test('the peer detail page lists the peer its streams with lifetime, bitrate and clients', async ({
  page,
}) => {
  await openAs(page, '/admin/cluster');
  await servers(page).getByRole('link', { name: '127.0.0.2', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/cluster\/peer\/127\.0\.0\.2$/);
  await expect(page.getByRole('heading', { name: '127.0.0.2' })).toBeVisible();
  const streams = page.getByRole('table', { name: 'Peer streams' });
  await expect(streams.getByRole('columnheader')).toHaveText(['Name', 'Lifetime', 'Bitrate', 'Clients']);
  const bcast = streams.getByRole('row', { name: 'bcast', exact: true }).getByRole('cell');
  await expect(bcast.nth(1)).toHaveText(/^\d\d:\d\d:\d\d$/);
  await expect(bcast.nth(2)).toHaveText(/^[1-9]\d* kbit\/s$/);
  await expect(bcast.nth(3)).toHaveText(/^\d+$/);
  // Reload asks the peer again: its lifetime has grown.
  const before = await bcast.nth(1).textContent();
  await expect(async () => {
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(bcast.nth(1)).not.toHaveText(before ?? '', { timeout: 1500 });
  }).toPass({ timeout: 20_000 });
});

test('Sources shows each origin with its stream count and what is taken from it', async ({ page }) => {
  await openAs(page, '/admin/cluster/sources');
  const list = page.getByRole('list', { name: 'Sources' });
  const fromB = list.getByRole('listitem', { name: `http://127.0.0.2:${cluster.b.port}` });
  await expect(fromB).toHaveText(/ streams: \d+ all ondemand except: \(junk\)$/);
  const missing = list.getByRole('listitem', { name: 'http://127.0.0.9:9' });
  await expect(missing).toHaveText('http://127.0.0.9:9 streams: 0 take only: (a, b)');
  const asked = page.waitForRequest((r) => r.url().endsWith('/cluster_servers?sources=true'));
  await page.getByRole('button', { name: 'Reload' }).click();
  await asked;
});

test('Ingest shows each cluster ingest stream on one server, re-polled every 3 s and on Reload', async ({
  page,
}) => {
  const asked: number[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/cluster_servers?ingest=true')) asked.push(Date.now());
  });
  await openAs(page, '/admin/cluster/ingest');
  const table = page.getByRole('table', { name: 'Ingest streams' });
  await expect(table.getByRole('columnheader')).toHaveText(['Stream', 'sluice-a', '127.0.0.2', '127.0.0.3']);
  const shared = table.getByRole('row', { name: 'shared', exact: true }).getByRole('cell');
  // Captured once: one cell names its server, every other says '-'.
  await expect(async () => {
    const cells = await shared.allTextContents();
    expect(cells.filter((text) => text !== '-')).toHaveLength(1);
    expect(cells.filter((text) => text === '-')).toHaveLength(2);
  }).toPass({ timeout: 30_000 });
  await expect.poll(() => asked.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  const gaps = asked.slice(1).map((at, i) => at - (asked[i] ?? 0));
  for (const gap of gaps) expect(gap).toBeGreaterThan(2500);
  const before = asked.length;
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => asked.length).toBeGreaterThan(before);
});

test('Settings: hostname, cluster key, and peers saved 1 s after an edit with the spinner', async ({
  page,
}) => {
  await openAs(page, '/admin/cluster/settings');
  const { b, c } = cluster;
  const hostname = page.getByRole('textbox', { name: 'Hostname' });
  await expect(hostname).toHaveValue('sluice-a');
  await expect(hostname).not.toBeEditable();
  await expect(page.getByText('How this peer should be referred from other flussonic peers')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Cluster key' })).toHaveValue(CLUSTER_KEY);
  await expect(page.getByText('Must be same on all clustered peers')).toBeVisible();

  const line = (name: string) => page.getByRole('group', { name, exact: true });
  await expect(line('Peer 1').getByRole('textbox')).toHaveValue(`127.0.0.2:${b.port}`);
  await expect(line('Peer 2').getByRole('textbox')).toHaveValue(`127.0.0.3:${c.port}`);
  await expect(line('Peer 1').getByRole('button', { name: 'remove' })).toBeVisible();
  await expect(line('New peer').getByRole('button')).toHaveCount(0);

  // Whether Save ever turned its spinner: it may turn for a few milliseconds only.
  await page.evaluate(() => {
    const w = window as unknown as { sawSpinner: boolean };
    w.sawSpinner = false;
    new MutationObserver(() => {
      if (document.querySelector('button[data-loading="true"]')) w.sawSpinner = true;
    }).observe(document.body, { attributes: true, subtree: true, childList: true });
  });
  const sawSpinner = () => page.evaluate(() => (window as unknown as { sawSpinner: boolean }).sawSpinner);

  const typedAt = Date.now();
  await line('New peer').getByRole('textbox').fill('127.0.0.4:1935');
  await expect(line('Peer 3').getByRole('textbox')).toHaveValue('127.0.0.4:1935');
  await expect(line('New peer').getByRole('textbox')).toHaveValue('');
  await expect(page.getByRole('status').getByText('Saved.')).toBeVisible();
  expect(Date.now() - typedAt).toBeGreaterThanOrEqual(1000);
  expect(await sawSpinner()).toBe(true);
  // Saved under the operator's hands: the line being typed in keeps its focus.
  await expect(line('Peer 3').getByRole('textbox')).toBeFocused();
  expect((await readPeers())['127.0.0.4']).toMatchObject({ name: '127.0.0.4', port: 1935 });

  // A line whose hostname is emptied goes when it is left (spec 002 §5); a port may be left out.
  await line('Peer 3').getByRole('textbox').fill(':1935');
  await line('Peer 3').getByRole('textbox').blur();
  await line('New peer').getByRole('textbox').fill('127.0.0.5');
  await expect(line('Peer 3').getByRole('textbox')).toHaveValue('127.0.0.5');
  await expect
    .poll(async () => Object.keys(await readPeers()).sort())
    .toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.5']);
  expect((await readPeers())['127.0.0.5']).toEqual({ name: '127.0.0.5', position: 2 });

  await line('Peer 3').getByRole('button', { name: 'remove' }).click();
  await expect(line('Peer 3')).toHaveCount(0);
  await expect.poll(async () => Object.keys(await readPeers()).sort()).toEqual(['127.0.0.2', '127.0.0.3']);
});

test('a view-only session sees the cluster read-only and never the cluster key', async ({ page }) => {
  await openAs(page, '/admin/cluster/settings', VIEWER);
  await expect(page.getByText('View only', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Hostname' })).toHaveValue('sluice-a');
  const first = page.getByRole('group', { name: 'Peer 1', exact: true }).getByRole('textbox');
  await expect(first).toHaveValue(`127.0.0.2:${cluster.b.port}`);
  await expect(first).not.toBeEditable();
  await expect(page.getByRole('textbox', { name: 'Cluster key' })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'New peer' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(save|remove)$/i })).toHaveCount(0);
  expect(await page.content()).not.toContain(CLUSTER_KEY);

  await page
    .getByRole('navigation', { name: 'cluster tabs' })
    .getByRole('link', { name: 'Overview' })
    .click();
  await expect(cellsOf(page, '127.0.0.2').first()).toHaveText(/^\*127\.0\.0\.2:/);
});

test('a peer that stops shows its error in Overview while the others go on', async ({ page }) => {
  await cluster.c.stop();
  await openAs(page, '/admin/cluster');
  const rowC = servers(page).getByRole('row', { name: '127.0.0.3', exact: true });
  await expect(async () => {
    await page.reload();
    await expect(rowC.getByRole('alert')).toHaveText('connection refused', { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await expect(
    servers(page).getByRole('row', { name: '127.0.0.2', exact: true }).getByRole('alert'),
  ).toHaveCount(0);
  await expect(cellsOf(page, '127.0.0.2').nth(4)).toHaveText('2');
});
