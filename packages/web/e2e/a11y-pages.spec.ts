import { test as base, type Locator, type Page } from '@playwright/test';
import type { RunningServer } from '../../server/test/harness.js';
import { startEveryKindServer } from './every-kind-server.js';
import { expect, watchConsole } from './fixtures.js';
import { expectNoSeriousViolations } from './pages/axe.js';
import { SharedLoggedInPage } from './pages/shared-page.js';

/**
 * Every main page of the console passes axe-core's WCAG 2 A/AA rules with no serious or critical
 * violation (issue 17). One server for the file holds one of each kind of item, so each page shows
 * its real content: a running stream, a disabled one, a location with a stream published to it, a
 * mirror, a VOD library, a DVR storage and an auth backend.
 */
let server: RunningServer;
let stopServer: (() => Promise<void>) | undefined;
/** The logged-in pages share one browser context (see SharedLoggedInPage); the login page has its own. */
const loggedIn = new SharedLoggedInPage();

const test = base.extend<{ server: RunningServer; loggedInPage: Page }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
  server: async ({}, use) => use(server),
  page: async ({ page }, use) => {
    const errors = watchConsole(page, []);
    await use(page);
    expect(errors(), 'console errors in the page').toEqual([]);
  },
  loggedInPage: ({ browser }, use) => loggedIn.use(browser, server.url, use),
});

test.beforeAll(async () => {
  ({ server, stop: stopServer } = await startEveryKindServer({ dvr: true }));
});

test.afterAll(async () => {
  await loggedIn.close();
  await stopServer?.();
});

interface Visit {
  title: string;
  path: string;
  /** Shown once the page has its content (axe checks what is drawn). */
  ready: (page: Page) => Locator;
  /** What to do once the page is open, before waiting for `ready` (reveal a hidden part). */
  act?: (page: Page) => Promise<void>;
  loggedOut?: true;
}

const tab = (nav: string, name: string) => (page: Page) =>
  page.getByRole('navigation', { name: nav }).getByRole('link', { name, exact: true });
const streamTab = (name: string, path: string): Visit => ({
  title: `stream ${name}`,
  path: `/admin/standalone/demo${path}`,
  ready: tab('stream tabs', name),
});

const visits: Visit[] = [
  {
    title: 'media list',
    path: '/admin',
    ready: (page) => page.getByRole('table', { name: 'Streams' }).getByRole('row', { name: 'idle' }),
  },
  streamTab('Overview', ''),
  streamTab('Input', '/input'),
  streamTab('Transcoder', '/transcoder'),
  streamTab('DVR', '/dvr'),
  streamTab('Output', '/output'),
  streamTab('Auth', '/auth'),
  streamTab('Clients', '/clients'),
  streamTab('History', '/history'),
  { title: 'location', path: '/admin/location/cams', ready: tab('location tabs', 'Overview') },
  {
    title: 'published stream',
    path: '/admin/published/cams%2Fcam',
    ready: tab('published tabs', 'Overview'),
  },
  { title: 'mirror', path: '/admin/mirror/0', ready: tab('mirror tabs', 'Overview') },
  { title: 'VOD overview', path: '/admin/vod/vod', ready: tab('vod tabs', 'Overview') },
  { title: 'VOD browser', path: '/admin/vod/vod/tree/0', ready: (page) => page.getByText('clip.mp4') },
  { title: 'VOD file', path: '/admin/file/vod%2Fclip.mp4', ready: tab('file tabs', 'Overview') },
  { title: 'global settings', path: '/admin/config', ready: (page) => page.getByLabel('HTTP ports') },
  { title: 'config editor', path: '/admin/config/editor', ready: (page) => page.getByRole('textbox') },
  {
    title: 'DVR storage',
    path: '/admin/dvrs',
    ready: (page) => page.getByRole('region', { name: 'DVR main' }),
  },
  {
    title: 'ad injector, a new schedule open',
    path: '/admin/ad_injector',
    act: (page) => page.getByRole('button', { name: 'Add schedule', exact: true }).click(),
    ready: (page) =>
      page.getByRole('region', { name: 'Ad schedule New schedule' }).getByLabel('Schedule name'),
  },
  {
    title: 'IPTV, not configured',
    path: '/admin/iptv',
    act: (page) => page.getByRole('button', { name: 'IPTV plugin settings' }).click(),
    ready: (page) => page.getByLabel('Database path'),
  },
  { title: 'auth backends', path: '/admin/auth', ready: (page) => page.getByText('paid', { exact: true }) },
  {
    title: 'pulse',
    path: '/admin/pulse',
    ready: (page) => page.getByRole('group', { name: 'CPU usage, last minute' }).locator('canvas'),
  },
  {
    title: 'cluster overview',
    path: '/admin/cluster',
    ready: (page) => page.getByRole('table', { name: 'Servers' }).getByRole('link'),
  },
  {
    title: 'cluster settings',
    path: '/admin/cluster/settings',
    ready: (page) => page.getByRole('group', { name: 'New peer' }),
  },
  {
    title: 'cluster ingest',
    path: '/admin/cluster/ingest',
    ready: (page) => page.getByRole('table', { name: 'Ingest streams' }).getByRole('columnheader'),
  },
  {
    title: 'cluster sources',
    path: '/admin/cluster/sources',
    ready: (page) => page.getByRole('list', { name: 'Sources' }).getByRole('listitem'),
  },
  {
    title: 'log upload',
    path: '/admin/logupload',
    ready: (page) => page.getByRole('region', { name: 'Support SSH access' }).getByRole('status'),
  },
  {
    title: 'watcher',
    path: '/admin/watcher',
    ready: (page) => page.getByText('Flussonic Watcher is disabled on this license'),
  },
  { title: 'not found', path: '/admin/nowhere', ready: (page) => page.getByText('Page not found') },
  {
    title: 'login',
    path: '/admin',
    ready: (page) => page.getByRole('form', { name: 'Log in to Sluice' }),
    loggedOut: true,
  },
];

const check = async (page: Page, visit: Visit) => {
  await page.goto(`${server.url}${visit.path}`);
  await visit.act?.(page);
  await expect(visit.ready(page).first()).toBeVisible();
  await expectNoSeriousViolations(page, visit.title);
};

for (const visit of visits) {
  const title = `${visit.title}: no serious or critical axe-core violations`;
  // The login page is seen logged out: a fresh context of its own.
  if (visit.loggedOut) test(title, ({ page }) => check(page, visit));
  else test(title, ({ loggedInPage }) => check(loggedInPage, visit));
}
