import { test as base, type Locator, type Page } from '@playwright/test';
import type { RunningServer } from '../../server/test/harness.js';
import { startEveryKindServer } from './every-kind-server.js';
import { expect } from './fixtures.js';
import {
  attachScreenshot,
  expectNoHorizontalOverflow,
  expectWithinScreen,
  MIN_TAP_PX,
  PHONE,
} from './pages/phone.js';
import { SharedLoggedInPage } from './pages/shared-page.js';

/**
 * Every main page of the console at a 390 px phone width (issue 17): a screenshot of each lands in
 * the report, nothing scrolls sideways, the page's own controls are on screen, and an item's page
 * gets the width of the screen instead of a sliver beside the list. One server for the file holds
 * one item of each kind, so each page shows its real content.
 */
let server: RunningServer;
let stopServer: (() => Promise<void>) | undefined;

/** Every visit is logged in at phone size: one browser context for the file (see SharedLoggedInPage). */
const loggedIn = new SharedLoggedInPage(PHONE);

const test = base.extend<{ server: RunningServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
  server: async ({}, use) => use(server),
  page: ({ browser }, use) => loggedIn.use(browser, server.url, use),
});

test.beforeAll(async () => {
  ({ server, stop: stopServer } = await startEveryKindServer());
});

test.afterAll(async () => {
  await loggedIn.close();
  await stopServer?.();
});

interface Visit {
  title: string;
  path: string;
  /** Shown once the page has its content. */
  ready: (page: Page) => Locator;
  /** The controls an operator came for: each must lie within the screen. */
  controls: (page: Page) => Locator[];
  /** An item page: its tabs, which span the pane the item gets. */
  tabs?: string;
  /** What the operator does first (opens a panel), once the page is ready. */
  act?: (page: Page) => Promise<void>;
}

/** The page's visible buttons shorter than a thumb's target, by name. */
const smallButtons = (page: Page) =>
  page
    .getByRole('button')
    .evaluateAll(
      (buttons, minPx) =>
        buttons
          .filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().height < minPx)
          .map(
            (b) =>
              `${b.getAttribute('aria-label') ?? b.textContent} (${Math.round(b.getBoundingClientRect().height)} px)`,
          ),
      MIN_TAP_PX,
    );

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).first();
const tabLink = (page: Page, nav: string, name: string) =>
  page.getByRole('navigation', { name: nav }).getByRole('link', { name, exact: true });
const streamTab = (name: string, path: string, withSave: boolean): Visit => ({
  title: `stream ${name}`,
  path: `/admin/standalone/demo${path}`,
  ready: (page) => tabLink(page, 'stream tabs', name),
  controls: (page) => [page.getByRole('link', { name: 'back to list' }), ...(withSave ? [save(page)] : [])],
  tabs: 'stream tabs',
});

const visits: Visit[] = [
  {
    title: 'media list',
    path: '/admin',
    ready: (page) => page.getByRole('table', { name: 'Streams' }).getByRole('row', { name: 'idle' }),
    controls: (page) => [page.getByRole('link', { name: 'idle', exact: true })],
  },
  streamTab('Overview', '', false),
  streamTab('Input', '/input', true),
  streamTab('Output', '/output', true),
  streamTab('Clients', '/clients', false),
  streamTab('History', '/history', false),
  {
    title: 'location',
    path: '/admin/location/cams',
    ready: (page) => tabLink(page, 'location tabs', 'Overview'),
    controls: (page) => [save(page)],
    tabs: 'location tabs',
  },
  {
    title: 'mirror',
    path: '/admin/mirror/0',
    ready: (page) => tabLink(page, 'mirror tabs', 'Overview'),
    controls: (page) => [save(page)],
    tabs: 'mirror tabs',
  },
  {
    title: 'VOD overview',
    path: '/admin/vod/vod',
    ready: (page) => tabLink(page, 'vod tabs', 'Overview'),
    controls: (page) => [save(page)],
    tabs: 'vod tabs',
  },
  {
    title: 'VOD browser',
    path: '/admin/vod/vod/tree/0',
    ready: (page) => page.getByRole('table', { name: 'files' }).getByText('clip.mp4'),
    controls: (page) => [
      page.getByRole('table', { name: 'files' }),
      page.getByLabel('Path', { exact: true }),
      page.getByRole('button', { name: 'Upload', exact: true }),
    ],
    tabs: 'vod tabs',
  },
  {
    title: 'VOD browser with a video open',
    path: '/admin/vod/vod/tree/0',
    ready: (page) => page.getByRole('table', { name: 'files' }).getByText('clip.mp4'),
    act: (page) => page.getByRole('button', { name: 'clip.mp4', exact: true }).click(),
    controls: (page) => [page.getByRole('region', { name: /^video / })],
    tabs: 'vod tabs',
  },
  {
    title: 'global settings',
    path: '/admin/config',
    ready: (page) => page.getByLabel('HTTP ports', { exact: true }),
    controls: (page) => [page.getByLabel('HTTP ports', { exact: true }), save(page)],
  },
  {
    title: 'config editor',
    path: '/admin/config/editor',
    ready: (page) => page.getByRole('textbox').first(),
    controls: (page) => [page.getByRole('textbox').first(), save(page)],
  },
  {
    title: 'DVR storage',
    path: '/admin/dvrs',
    ready: (page) => page.getByRole('region', { name: 'DVR main', exact: true }),
    controls: (page) => [save(page), page.getByRole('button', { name: 'Add DVR', exact: true })],
  },
  {
    title: 'ad injector',
    path: '/admin/ad_injector',
    ready: (page) =>
      page.getByRole('region', { name: 'Files' }).getByRole('button', { name: 'vod', exact: true }),
    controls: (page) => [save(page), page.getByRole('button', { name: 'Add schedule', exact: true })],
  },
  {
    title: 'pulse',
    path: '/admin/pulse',
    ready: (page) => page.getByRole('group', { name: 'CPU usage, last minute' }).locator('canvas'),
    controls: (page) => [
      page.getByRole('textbox', { name: 'Query' }),
      page.getByRole('button', { name: 'show', exact: true }),
    ],
  },
  {
    title: 'IPTV, not configured',
    path: '/admin/iptv',
    ready: (page) => page.getByRole('button', { name: 'IPTV plugin settings' }),
    act: (page) => page.getByRole('button', { name: 'IPTV plugin settings' }).click(),
    controls: (page) => [
      page.getByLabel('Database path', { exact: true }),
      page.getByRole('button', { name: 'Enable IPTV', exact: true }),
    ],
  },
  {
    title: 'cluster overview',
    path: '/admin/cluster',
    ready: (page) => page.getByRole('table', { name: 'Servers' }).getByRole('link'),
    controls: (page) => [tabLink(page, 'cluster tabs', 'Settings')],
  },
  {
    title: 'cluster settings',
    path: '/admin/cluster/settings',
    ready: (page) => page.getByRole('group', { name: 'New peer' }),
    controls: (page) => [page.getByRole('group', { name: 'New peer' }).getByRole('textbox'), save(page)],
  },
  {
    title: 'auth backends',
    path: '/admin/auth',
    ready: (page) => page.getByText('paid', { exact: true }),
    controls: (page) => [save(page)],
  },
];

for (const visit of visits) {
  test(`${visit.title} at 390 px: no sideways scroll, controls on screen`, async ({
    page,
    server,
  }, testInfo) => {
    await page.goto(`${server.url}${visit.path}`);
    await expect(visit.ready(page).first()).toBeVisible();
    await visit.act?.(page);
    for (const control of visit.controls(page)) await expect(control).toBeVisible();
    await attachScreenshot(page, testInfo, visit.title);
    await expectNoHorizontalOverflow(page, visit.title);
    for (const control of visit.controls(page)) await expectWithinScreen(control);
    expect(await smallButtons(page), 'buttons too small for a thumb').toEqual([]);
    if (visit.tabs) {
      const tabs = await page.getByRole('navigation', { name: visit.tabs }).boundingBox();
      expect(tabs?.width ?? 0, 'the item page is as wide as the screen, not a sliver').toBeGreaterThanOrEqual(
        300,
      );
      for (const tab of await page.getByRole('navigation', { name: visit.tabs }).getByRole('link').all())
        expect((await tab.boundingBox())?.height ?? 0, 'a thumb-sized tab').toBeGreaterThanOrEqual(
          MIN_TAP_PX,
        );
    }
  });
}
