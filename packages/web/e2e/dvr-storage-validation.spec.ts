import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { DvrStoragePage } from './pages/dvr-storage-page.js';

const TWO_DVRS = `${minimalConfig}stream cam {
  url udp://239.0.0.1:1234;
  dvr /storage/cam 1h;
}
dvr main {
  root /archive;
  raid 0;
  disk sda;
  disk sdb mode=keep;
}
dvr spare {
  root /spare;
}
`;

test.describe('DVR storage page: rules, Reset and panels', () => {
  test.use({ serverConfig: TWO_DVRS });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await new DvrStoragePage(page).open(server.url);
  });

  test('each name and root message shows on its field and disables Save while it shows', async ({
    page,
    server,
  }) => {
    const ui = new DvrStoragePage(page);
    await ui.summary('main').click();
    // Something changed, nothing invalid: Save is enabled, so each message below is what disables it.
    await ui.field('main', 'Copy chunks to this location').fill('/backup');
    await expect(ui.save).toBeEnabled();

    const name = ui.field('main', 'Name');
    const root = ui.field('main', 'Root');
    const cases: [field: typeof name, typed: string, message: string][] = [
      [name, '', 'DVR name is required and should have 1 character at least.'],
      [name, 'spare', 'DVR name should be unique, this name is already used.'],
      [root, '', 'DVR root is required and should have 1 character at least.'],
      [root, '/spare', 'DVR root should be unique, this root is already used as global.'],
      // A stream's root with the leading slash left out is the same root.
      [root, 'storage/cam', 'DVR root should be unique, this root is already used as stream root path.'],
      [root, '/storage/cam', 'DVR root should be unique, this root is already used as stream root path.'],
    ];
    for (const [field, typed, message] of cases) {
      await field.fill(typed);
      await expect(ui.panel('main').getByText(message, { exact: true })).toBeVisible();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(ui.save).toBeDisabled();
    }
    // An invalid name is never applied: the panel keeps its name.
    await expect(ui.panel('spare')).toBeVisible();
    await name.fill('main');
    await root.fill('/archive2');
    await expect(ui.panel('main').locator('[aria-invalid="true"]')).toHaveCount(0);
    await expect(ui.save).toBeEnabled();

    // The server refuses the same roots from any client, with the same words.
    for (const [root, message] of [
      ['/spare', 'this root is already used as global.'],
      ['storage/cam', 'this root is already used as stream root path.'],
    ]) {
      const answer = await server.api('/flussonic/api/modify_config', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dvrs: { main: { root } } }),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toContain(message);
    }
  });

  test('Reset discards every unsaved change, a typed name included', async ({ page, server }) => {
    const ui = new DvrStoragePage(page);
    const before = await readFile(server.configPath, 'utf8');
    await ui.summary('main').click();
    await ui.field('main', 'Root').fill('/elsewhere');
    await ui.field('main', 'RAID 0').uncheck();
    await page.getByRole('button', { name: 'delete spare' }).click();
    await expect(ui.panel('spare')).toHaveCount(0);
    await ui.field('main', 'Name').fill('');
    await ui.addDvr.click();
    await expect(ui.panel('dvr1')).toBeVisible();
    await expect(ui.reset).toBeEnabled();

    await ui.reset.click();
    await expect(ui.panel('spare')).toBeVisible();
    await expect(ui.panel('dvr1')).toHaveCount(0);
    await expect(ui.summary('main')).toContainText('main at /archive');
    await expect(ui.summary('main')).toContainText('RAID 0 · 2 disks');
    await ui.summary('main').click();
    await expect(ui.field('main', 'Name')).toHaveValue('main');
    await expect(ui.field('main', 'Root')).toHaveValue('/archive');
    await expect(ui.save).toBeDisabled();
    await expect(ui.reset).toBeDisabled();
    expect(await readFile(server.configPath, 'utf8')).toBe(before);
  });

  test('several DVRs start collapsed, one opens by itself, a new one opens alone, and other saves show live', async ({
    page,
    server,
  }) => {
    const ui = new DvrStoragePage(page);
    await expect(ui.summary('main')).toContainText('RAID 0 · 2 disks');
    await expect(ui.summary('spare')).toHaveText('spare at /spare');
    await expect(ui.field('main', 'Name')).toBeHidden();
    await expect(ui.field('spare', 'Name')).toBeHidden();

    await ui.summary('spare').click();
    await expect(ui.field('spare', 'Name')).toBeVisible();
    await ui.addDvr.click();
    // The new DVR opens for its root to be typed; the others close.
    await expect(ui.field('dvr1', 'Root')).toBeVisible();
    await expect(ui.field('spare', 'Name')).toBeHidden();
    await page.getByRole('button', { name: 'delete dvr1' }).click();
    await page.getByRole('button', { name: 'delete spare' }).click();
    // Only one DVR left: its panel opens by itself.
    await expect(ui.field('main', 'Name')).toBeVisible();

    // Another administrator's save shows here without a reload; the unsaved deletion stays.
    const other = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dvrs: { theirs: { root: '/theirs', raid: 0, disks: { a: {} } } } }),
    });
    expect(other.status).toBe(200);
    await expect(ui.summary('theirs')).toContainText('theirs at /theirs');
    await expect(ui.summary('theirs')).toContainText('RAID 0 · 1 disk');
    await expect(ui.panel('spare')).toHaveCount(0);
  });
});
