import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { DvrStoragePage } from './pages/dvr-storage-page.js';
import { expectConfigFile } from './pages/stream-page.js';

/** The `dvr NAME { … }` block of the config file, or '' when there is none. */
const dvrBlock = (text: string, name: string) =>
  new RegExp(`\\ndvr ${name} \\{([\\s\\S]*?)\\n\\}`).exec(`\n${text}`)?.[1] ?? '';

test.describe('DVR storage page: saving', () => {
  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('a DVR with every section filled is written to the config file as dvrs', async ({ page, server }) => {
    const ui = new DvrStoragePage(page);
    await ui.open(server.url);
    await expect(ui.empty).toBeVisible();
    await expect(ui.save).toBeDisabled();

    await ui.addDvr.click();
    // A new DVR has no root yet: the message shows and Save waits for one.
    await expect(ui.field('dvr1', 'Name')).toBeVisible();
    await expect(ui.panel('dvr1')).toContainText(
      'DVR root is required and should have 1 character at least.',
    );
    await expect(ui.save).toBeDisabled();
    await expect(ui.field('dvr1', 'RAID 0')).toBeDisabled();

    await ui.field('dvr1', 'Name').fill('archive');
    await expect(ui.panel('archive')).toBeVisible();
    const name = 'archive';
    await ui.field(name, 'Root').fill('/storage');
    await expect(ui.field(name, 'Disks to write')).toBeDisabled();
    await ui.field(name, 'RAID 0').check();

    const disks = ui.section(name, 'Disks');
    await disks.getByRole('button', { name: 'Add disk' }).click();
    await disks.getByRole('button', { name: 'Add disk' }).click();
    await expect(ui.disk(name, 'disk1')).toContainText('/storage/');
    await ui.renameDisk(name, 'disk1', 'sda');
    await ui.disk(name, 'sda').getByLabel('Mode').selectOption('keep');
    await ui.disk(name, 'disk2').getByLabel('Mode').selectOption('readonly');
    await ui.field(name, 'Disks to write').selectOption('2');
    await ui.field(name, 'Copy chunks to this location').fill('/backup');

    await ui.field(name, 'Cached metadata subdirectory').fill('meta');
    await expect(ui.field(name, 'Indexing for streams')).toBeChecked();
    await ui.field(name, 'Indexing for streams').uncheck();

    await ui.field(name, 'Disk limit, %').fill('90');
    await ui.field(name, 'Disk space').fill('10');
    await ui.field(name, 'Archive depth').fill('2');

    const schedule = ui.section(name, 'Schedule');
    await schedule.getByRole('button', { name: 'Add range' }).click();
    // Spec 002 §9: a new range is the whole day.
    await expect(ui.range(name, 1).getByLabel('From')).toHaveValue('00:00');
    await expect(ui.range(name, 1).getByLabel('To')).toHaveValue('23:59');
    await ui.range(name, 1).getByLabel('From').fill('08:30');
    await ui.range(name, 1).getByLabel('To').fill('17:00');
    await schedule.getByRole('button', { name: 'Add range' }).click();
    await schedule.getByRole('button', { name: 'Add range' }).click();
    await ui.range(name, 2).getByLabel('From').fill('20:00');
    await schedule.getByRole('button', { name: 'delete range 2' }).click();
    await expect(ui.range(name, 3)).toHaveCount(0);
    await expect(ui.range(name, 2).getByLabel('From')).toHaveValue('00:00');

    await expect(ui.summary(name)).toContainText('archive at /storage');
    await expect(ui.summary(name)).toContainText('RAID 0 · 2 disks');

    await ui.save.click();
    await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
    await expectConfigFile(server.configPath, (t) => dvrBlock(t, 'archive').includes('dvr_limit'));
    const block = dvrBlock(await readFile(server.configPath, 'utf8'), 'archive');
    for (const line of [
      'root /storage;',
      'raid 0;',
      'active 2;',
      'copy /backup;',
      'index meta;',
      'no_index;',
      'schedule 830 1700;',
      'schedule 0 2359;',
      'disk sda mode=keep;',
      'disk disk2 mode=readonly;',
      'disk_limit 90%;',
      'disk_space 10g;',
      'dvr_limit 2h;',
    ])
      expect(block).toContain(line);
    expect(block.indexOf('disk sda')).toBeLessThan(block.indexOf('disk disk2'));

    const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
      dvrs: Record<string, unknown>;
    };
    expect(config.dvrs.archive).toMatchObject({
      root: '/storage',
      raid: 0,
      active: 2,
      copy: '/backup',
      index: 'meta',
      no_index: true,
      schedule: [
        [830, 1700],
        [0, 2359],
      ],
      disks: { sda: { position: 0, mode: 'keep' }, disk2: { position: 1, mode: 'readonly' } },
      disk_limit: 90,
      disk_space: 10 * 1024 ** 3,
      dvr_limit: 7200,
    });
    await expect(ui.save).toBeDisabled();
  });

  test.describe('with one DVR', () => {
    test.use({ serverConfig: `${minimalConfig}dvr main {\n  root /storage;\n}\n` });

    test('a typed name is applied 300 ms after the last keystroke, and a DVR is deleted', async ({
      page,
      server,
    }) => {
      const ui = new DvrStoragePage(page);
      await ui.open(server.url);
      // With only one DVR its panel is open.
      await expect(ui.field('main', 'Name')).toBeVisible();

      // When the field changed and when the panel took the new name, by the page's own clock.
      await page.evaluate(() => {
        const marks = window as unknown as { typedAtMs?: number; appliedAtMs?: number };
        document.addEventListener('input', () => (marks.typedAtMs = performance.now()), true);
        new MutationObserver(() => {
          if (marks.appliedAtMs === undefined && document.querySelector('[aria-label="DVR primary"]'))
            marks.appliedAtMs = performance.now();
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await ui.field('main', 'Name').fill('primary');
      await expect(ui.panel('primary')).toBeVisible();
      const waitedMs = await page.evaluate(() => {
        const m = window as unknown as { typedAtMs: number; appliedAtMs: number };
        return m.appliedAtMs - m.typedAtMs;
      });
      // A browser timer may fire a millisecond before its due time by performance.now().
      expect(waitedMs).toBeGreaterThanOrEqual(298);
      // The panel stays the same one: the operator can go on typing.
      await expect(ui.field('primary', 'Name')).toBeFocused();
      await expect(ui.field('primary', 'Name')).toHaveValue('primary');

      await ui.save.click();
      await expectConfigFile(server.configPath, (t) => t.includes('dvr primary {'));
      const text = await readFile(server.configPath, 'utf8');
      expect(text).not.toContain('dvr main');
      expect(dvrBlock(text, 'primary')).toContain('root /storage;');

      await page.getByRole('button', { name: 'delete primary' }).click();
      await expect(ui.panel('primary')).toHaveCount(0);
      await expect(ui.empty).toBeVisible();
      await ui.save.click();
      await expectConfigFile(server.configPath, (t) => !t.includes('dvr primary'));
    });
  });
});
