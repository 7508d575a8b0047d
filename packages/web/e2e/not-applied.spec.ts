import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { DvrStoragePage } from './pages/dvr-storage-page.js';

/**
 * Issue 23: a setting the server saves but does not act on is marked "not applied" where the
 * console shows it, as the DRM section marks a vendor (lib/not-applied.ts; the server's field review
 * lists every such field).
 */
let library = '';
test.beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), 'sluice-e2e-not-applied-'));
});
test.afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

test.describe('not applied marks', () => {
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
    serverConfig: async ({}, use) =>
      use(`${minimalConfig}file vod {\n  path ${library};\n}\ndvr main {\n  root /storage;\n}\n`),
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('switching on MBR from multiple files shows that it is not applied; switching it off hides the mark', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/vod/vod/output`);
    const mark = page.getByRole('alert', { name: 'MBR from multiple files not applied' });
    const mbr = page.getByLabel('Enable MBR from multiple files');
    await expect(mbr).not.toBeChecked();
    await expect(mark).toHaveCount(0);
    await mbr.check();
    await expect(mark).toContainText('Saved but not applied');
    await mbr.uncheck();
    await expect(mark).toHaveCount(0);
  });

  test('a DVR storage without indexing says that it is not applied', async ({ page, server }) => {
    const ui = new DvrStoragePage(page);
    await ui.open(server.url);
    const mark = page.getByRole('alert', { name: 'Indexing for streams not applied' });
    await expect(ui.field('main', 'Indexing for streams')).toBeChecked();
    await expect(mark).toHaveCount(0);
    await ui.field('main', 'Indexing for streams').uncheck();
    await expect(mark).toContainText('the DVR always indexes its streams');
  });
});
