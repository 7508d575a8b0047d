import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, minimalConfig, test } from './fixtures.js';
import { type ArchiveRun, writeArchive } from './dvr-archive-fixture.js';
import { ConsoleShell } from './pages/console-shell.js';
import { DvrTab } from './pages/dvr-tab.js';
import { expectPlaying } from './pages/stream-page.js';

/** Spec 001 §9. */
const CELL_PX = 6;
const CELL_S = 180;

const root = mkdtempSync(join(tmpdir(), 'sluice-e2e-dvr-timeline-'));
let runs: ArchiveRun[] = [];

test.describe('DVR timeline', () => {
  test.use({
    serverConfig: `${minimalConfig}stream cam {\n  url test://?size=160x90&bitrate=100;\n  dvr ${root} 1d;\n}\n`,
  });

  test.beforeAll(async () => {
    // Ten seconds of archive 40 minutes ago, a 20-minute outage, ten seconds more: a gap of cells.
    const nowMs = Date.now();
    runs = await writeArchive(root, 'cam', [nowMs - 40 * 60_000, nowMs - 20 * 60_000], 5);
  });

  test.afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('the archive read back at start shows as filled cells with a visible gap; a click plays that moment', async ({
    page,
    server,
  }) => {
    const tab = new DvrTab(page);
    await page.goto(`${server.url}/admin/standalone/cam/dvr`);
    await expect(tab.timeline).toBeVisible();
    await expect(tab.timeline).toHaveCSS('width', '500px');

    const archive = tab.timeline.locator('rect[data-kind="archive"]');
    const gaps = tab.timeline.locator('rect[data-kind="gap"]');
    await expect(archive).toHaveCount(2);
    // One cell each (10 s inside or across a 3-minute cell), and the outage between them empty.
    const [before, after] = runs as [ArchiveRun, ArchiveRun];
    const cellsOf = (run: ArchiveRun) =>
      Math.floor((run.endMs / 1000 - 1e-3) / CELL_S) - Math.floor(run.startMs / 1000 / CELL_S) + 1;
    await expect(archive.nth(0)).toHaveAttribute('width', String(cellsOf(before) * CELL_PX));
    const gapCells =
      Math.floor(after.startMs / 1000 / CELL_S) - Math.floor((before.endMs / 1000 - 1e-3) / CELL_S) - 1;
    expect(gapCells).toBeGreaterThan(4);
    await expect(gaps.first()).toHaveAttribute('width', String(gapCells * CELL_PX));
    // From the archive's start to now: the strip is wider than its 500 px box and scrolls.
    const stripWidth = Number(await tab.timeline.locator('svg').getAttribute('width'));
    expect(stripWidth).toBeGreaterThanOrEqual(
      Math.floor((Date.now() / 1000 - before.startMs / 1000) / CELL_S) * CELL_PX,
    );

    // A click on the later run's cell asks for the archive from where that run starts.
    const playlist = page.waitForRequest(/\/cam\/archive-\d+-\d+\.m3u8/);
    await archive.nth(1).click({ position: { x: 2, y: 5 } });
    const url = new URL((await playlist).url());
    const [, from, duration] = /archive-(\d+)-(\d+)\.m3u8$/.exec(url.pathname) ?? [];
    // dvr_info is in whole seconds: the moments are those of the files to within a second.
    expect(Math.abs(Number(from) - after.startMs / 1000)).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(from) + Number(duration) - after.endMs / 1000)).toBeLessThanOrEqual(1);
    // With the admin token the live player uses.
    expect(url.searchParams.get('token')).toBeTruthy();
    // The player plays the past: ten seconds of archive, its position moving on.
    await expectPlaying(tab.player);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
