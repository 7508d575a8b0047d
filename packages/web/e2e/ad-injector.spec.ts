import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, type Locator, type Page } from '@playwright/test';
import { AD_STATS_FILE, AdStats } from '../../server/src/ads/ad-stats.js';
import { startServer, type RunningServer } from '../../server/test/harness.js';
import { expect, watchConsole } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { fillLibrary, vodConfig } from './vod-browser-fixture.js';

/**
 * The ad injector page (spec 002 §2, §4, §5, §9; issue 25) against a real server with a real VOD
 * folder (ffmpeg-made mp4s). One server for the file: each test makes schedules of its own names.
 */
let server: RunningServer;
let vodDir: string;

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
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  vodDir = await mkdtemp(join(tmpdir(), 'sluice-e2e-ads-'));
  await fillLibrary(vodDir);
  // Counts an earlier run recorded (what the inserter writes while players watch; ads/ad-stats.ts).
  const serverDir = await mkdtemp(join(tmpdir(), 'sluice-e2e-ads-server-'));
  const stats = new AdStats(join(serverDir, AD_STATS_FILE));
  for (let i = 0; i < 3; i++) stats.recordShow('news', 'vod/clip.mp4');
  for (const session of ['a', 'b', 'a']) stats.recordView('news', 'vod/clip.mp4', session);
  stats.close();
  server = await startServer({ dir: serverDir, config: vodConfig(vodDir) });
});
test.afterAll(async () => {
  await server?.cleanup();
  await rm(vodDir, { recursive: true, force: true });
});

class AdPage {
  constructor(readonly page: Page) {}
  async open() {
    await new ConsoleShell(this.page, server.url).rememberLogin();
    await this.page.goto(`${server.url}/admin/ad_injector`);
    await expect(this.page.getByRole('heading', { name: 'Ad schedules' })).toBeVisible();
  }
  /** Through the Settings page's link, which led to 'Page not found' before this page. */
  async openFromSettings() {
    await new ConsoleShell(this.page, server.url).rememberLogin();
    await this.page.goto(`${server.url}/admin/config`);
    await this.page.getByRole('link', { name: 'Ad Injector', exact: true }).click();
    await expect(this.page).toHaveURL(/\/admin\/ad_injector$/);
    await expect(this.page.getByRole('heading', { name: 'Ad schedules' })).toBeVisible();
  }
  get save() {
    return this.page.getByRole('button', { name: 'Save', exact: true });
  }
  get add() {
    return this.page.getByRole('button', { name: 'Add schedule', exact: true });
  }
  get files() {
    return this.page.getByRole('region', { name: 'Files' });
  }
  schedule(title: string): Locator {
    return this.page.getByRole('region', { name: `Ad schedule ${title}`, exact: true });
  }
  slot(schedule: Locator, n: number): Locator {
    return schedule.getByRole('group', { name: `slot ${n}`, exact: true });
  }
  /** Adds a schedule (it opens) and names it. */
  async newSchedule(name: string): Promise<Locator> {
    await this.add.click();
    await this.schedule('New schedule').getByLabel('Schedule name').fill(name);
    return this.schedule(name);
  }
}

test('a schedule with two slots and a file is saved into the config file and shown after a reload', async ({
  page,
}) => {
  const ui = new AdPage(page);
  await ui.openFromSettings();
  // Adverted streams: per stream, File / Shows / Views as GET ad_streams answers them.
  const news = page
    .getByRole('region', { name: 'Adverted streams' })
    .getByRole('table', { name: 'Ads of news' });
  await expect(news.getByRole('row')).toHaveText(['FileShowsViews', 'vod/clip.mp432']);
  await expect(ui.save).toBeDisabled();
  const morning = await ui.newSchedule('morning');
  await morning.getByRole('button', { name: 'Add slot' }).click();
  await morning.getByRole('button', { name: 'Add slot' }).click();
  // The mask: digits typed become HH:mm:ss.
  await ui.slot(morning, 1).getByLabel('From').fill('083000');
  await expect(ui.slot(morning, 1).getByLabel('From')).toHaveValue('08:30:00');
  await ui.slot(morning, 1).getByLabel('Duration').fill('30');
  await expect(ui.slot(morning, 2).getByLabel('From')).toHaveValue('01:00:00');
  await expect(ui.slot(morning, 2).getByLabel('Duration')).toHaveValue('15');

  // The Files browser: the VOD location, its folders, '.. parent directory', only video files checkable.
  await ui.files.getByRole('button', { name: 'vod', exact: true }).click();
  await expect(ui.files.getByRole('checkbox', { name: 'clip.mp4' })).toBeVisible();
  await expect(ui.files.getByText('notes.txt')).toHaveCount(0);
  await expect(ui.files.getByRole('checkbox', { name: 'zeta.mkv' })).toHaveCount(0);
  await ui.files.getByRole('button', { name: 'archive', exact: true }).click();
  await expect(ui.files.getByRole('checkbox', { name: 'old.mp4' })).toBeVisible();
  await ui.files.getByRole('button', { name: '.. parent directory' }).click();
  await ui.files.getByRole('checkbox', { name: 'clip.mp4' }).check();
  await expect(morning.getByLabel('Filename')).toHaveValue('vod/clip.mp4');
  await expect(morning.getByLabel('Filename')).toHaveJSProperty('readOnly', true);
  await expect(morning.getByLabel('Weight')).toHaveValue('1');

  await expect(ui.save).toBeEnabled();
  await ui.save.click();
  // Saved: nothing differs from the saved copy, so Save is off again.
  await expect(ui.save).toBeDisabled();
  await expect
    .poll(() => readFile(server.configPath, 'utf8'))
    .toContain('ad_schedule morning {\n  slot 08:30:00 30;\n  slot 01:00:00 15;\n  file vod/clip.mp4 1;\n}');

  await page.reload();
  await ui
    .schedule('morning')
    .getByRole('button', { name: /morning/ })
    .click();
  await expect(ui.slot(ui.schedule('morning'), 1).getByLabel('From')).toHaveValue('08:30:00');
  await expect(ui.schedule('morning').getByLabel('Filename')).toHaveValue('vod/clip.mp4');
  // The browser starts at the VOD locations again; the open schedule's file shows checked in it.
  await ui.files.getByRole('button', { name: 'vod', exact: true }).click();
  await expect(ui.files.getByRole('checkbox', { name: 'clip.mp4' })).toBeChecked();

  // A save from elsewhere (another console, a script) shows here without a reload (live config).
  const saved = (await (await server.api('/flussonic/api/fetch_ad_schedules')).json()) as unknown[];
  const noon = { name: 'noon', slots: [{ from: '12:00:00', duration: 20 }], files: [] };
  const answer = await server.api('/flussonic/api/save_ad_schedules', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([...saved, noon]),
  });
  expect(answer.status).toBe(200);
  await expect(ui.schedule('noon')).toBeVisible();
  await expect(ui.save).toBeDisabled();
});

test.describe('refusals', () => {
  // The refused save below: Chromium logs the 400 answer itself.
  test.use({ allowedConsoleErrors: [/status of 400 \(Bad Request\)/] });

  test('each validation message shows on its field and keeps Save off; a refused save only ends the saving', async ({
    page,
  }) => {
    const ui = new AdPage(page);
    await ui.open();
    await ui.add.click();
    const blank = ui.schedule('New schedule');
    await expect(
      blank.getByText('Ad schedule name is required and should have 1 character at least.', { exact: true }),
    ).toBeVisible();
    // Only one new schedule with a blank name at a time.
    await expect(ui.add).toBeDisabled();
    await expect(ui.save).toBeDisabled();
    await blank.getByLabel('Schedule name').fill('morning');
    const dup = ui.schedule('morning').last();
    await expect(dup.getByText('Ad schedule name should be unique.', { exact: true })).toBeVisible();
    await dup.getByLabel('Schedule name').fill('evening');
    const evening = ui.schedule('evening');
    await evening.getByRole('button', { name: 'Add slot' }).click();
    await evening.getByRole('button', { name: 'Add slot' }).click();
    await ui.files.getByRole('button', { name: 'vod', exact: true }).click();
    await ui.files.getByRole('checkbox', { name: 'clip.mp4' }).check();
    await expect(ui.save).toBeEnabled();

    const from1 = ui.slot(evening, 1).getByLabel('From');
    const duration1 = ui.slot(evening, 1).getByLabel('Duration');
    const weight = evening.getByLabel('Weight');
    const cases: [field: Locator, typed: string, message: string, shownOn?: Locator][] = [
      [from1, '123', 'Slot format is HH:mm:ss'],
      [from1, '010000', 'Time slot start time should be unique'],
      [duration1, '0', 'Should be greater, than 0'],
      [weight, '0', 'Should be greater, than 0'],
      // The overlap is told at the start of the slot that runs into the next one.
      [duration1, '3601', 'Time slot overlaps the next one, which starts at 01:00:00', from1],
    ];
    for (const [field, typed, message, shownOn = field] of cases) {
      await field.fill(typed);
      await expect(evening.getByText(message, { exact: true }).first()).toBeVisible();
      await expect(shownOn).toHaveAttribute('aria-invalid', 'true');
      await expect(ui.save).toBeDisabled();
      // Put the field right again before the next case.
      await field.fill(field === from1 ? '000000' : field === weight ? '1' : '15');
      await expect(ui.save).toBeEnabled();
    }

    // The file goes from the disk after it was checked: the server refuses the save. Spec 002 §4: a
    // failed save only clears the saving state, with no message; the edits stay for another try.
    const before = await readFile(server.configPath, 'utf8');
    await rename(join(vodDir, 'clip.mp4'), join(vodDir, 'clip.moved'));
    try {
      const refused = page.waitForResponse(
        (r) => r.url().endsWith('/save_ad_schedules') && r.status() === 400,
      );
      await ui.save.click();
      await refused;
      await expect(ui.save).toBeEnabled();
      await expect(page.getByRole('alert')).toHaveCount(0);
      await expect(page.getByText(/not found/)).toHaveCount(0);
      await expect(evening.getByLabel('Filename')).toHaveValue('vod/clip.mp4');
      expect(await readFile(server.configPath, 'utf8')).toBe(before);
    } finally {
      await rename(join(vodDir, 'clip.moved'), join(vodDir, 'clip.mp4'));
    }
  });
});

test('Add slot: one hour after the last, wrapping after hour 22, a taken start shifted by 5 minutes', async ({
  page,
}) => {
  const ui = new AdPage(page);
  await ui.open();
  const night = await ui.newSchedule('night');
  const addSlot = night.getByRole('button', { name: 'Add slot' });
  const from = (n: number) => ui.slot(night, n).getByLabel('From');
  await addSlot.click();
  await expect(from(1)).toHaveValue('00:00:00');
  await from(1).fill('221000');
  await addSlot.click();
  await expect(from(2)).toHaveValue('23:10:00');
  await addSlot.click();
  await expect(from(3)).toHaveValue('00:10:00');
  await from(1).fill('011000');
  // One hour after 00:10:00 is 01:10:00, which slot 1 holds: 5 minutes later.
  await addSlot.click();
  await expect(from(4)).toHaveValue('01:15:00');
  await expect(ui.slot(night, 4).getByLabel('Duration')).toHaveValue('15');
});
