import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import { minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile } from './pages/stream-page.js';

/** The Auth backends page (/admin/auth): the value editor, the backends and the buttons. */
class AuthBackendsPage {
  readonly save: Locator;
  readonly reset: Locator;
  readonly addBackend: Locator;
  readonly editor: Locator;

  constructor(readonly page: Page) {
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.reset = page.getByRole('button', { name: 'Reset', exact: true });
    this.addBackend = page.getByRole('button', { name: 'Add auth backend' });
    this.editor = page.getByRole('form', { name: 'value editor' });
  }

  backend(name: string): Locator {
    return this.page.getByRole('region', { name: `auth backend ${name}`, exact: true });
  }

  chip(backend: string, label: string): Locator {
    return this.backend(backend).getByLabel(label, { exact: true });
  }

  async addValue(mode: string, variant: string, target: string, value: string): Promise<void> {
    await this.editor.getByLabel('Mode').selectOption(mode);
    if (mode !== 'backend') await this.editor.getByLabel('Variant').selectOption(variant);
    await this.editor.getByLabel('Auth backend').fill(target);
    await this.editor.getByLabel('Value').fill(value);
    await this.editor.getByRole('button', { name: 'Add', exact: true }).click();
  }
}

/** The chip's text colour: green for allowed, red for denied (spec 002 §2). */
async function hue(chip: Locator): Promise<'green' | 'red' | 'other'> {
  const color = await chip.evaluate((el) => getComputedStyle(el).color);
  const [r = 0, g = 0] = (color.match(/\d+/g) ?? []).map(Number);
  return g > r ? 'green' : r > g ? 'red' : 'other';
}

test.describe('auth backends page', () => {
  test.use({
    serverConfig: `${minimalConfig}auth_backend paid {\n  allow token gold;\n  deny ip 10.0.0.0/8;\n}\n`,
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/auth`);
  });

  test('values, a new backend, rename, allow default, edit and delete are saved to the config file', async ({
    page,
    server,
  }) => {
    const ui = new AuthBackendsPage(page);
    await expect(ui.chip('paid', 'allow token gold')).toBeVisible();
    expect(await hue(ui.chip('paid', 'allow token gold'))).toBe('green');
    expect(await hue(ui.chip('paid', 'deny ip 10.0.0.0/8'))).toBe('red');
    await expect(ui.save).toBeDisabled();
    await expect(ui.reset).toBeDisabled();
    await expect(ui.addBackend).toBeDisabled();

    await ui.addValue('allow', 'ip', 'paid', '192.168.0.0/16');
    await expect(ui.backend('paid').getByRole('group', { name: 'IP chips' })).toContainText('192.168.0.0/16');
    await expect(ui.save).toBeEnabled();
    await expect(ui.addBackend).toBeEnabled();
    // The same value again in the same list is refused without a word.
    await ui.addValue('allow', 'ip', 'paid', '192.168.0.0/16');
    await expect(ui.chip('paid', 'allow ip 192.168.0.0/16')).toHaveCount(1);
    await ui.addValue('backend', 'ip', 'paid', 'http://127.0.0.1:9/auth');
    await expect(ui.chip('paid', 'backend http://127.0.0.1:9/auth')).toBeVisible();

    // A target not yet known is a new backend; its title renames it, trimmed.
    await ui.addValue('deny', 'country', 'free', 'ru');
    await expect(ui.chip('free', 'deny country RU')).toBeVisible();
    expect(await hue(ui.chip('free', 'deny country RU'))).toBe('red');
    await page.getByLabel('rename free').click();
    await page.getByLabel('Auth backend name').fill('  open  ');
    await page.getByLabel('Auth backend name').press('Enter');
    await expect(ui.backend('open')).toBeVisible();
    await expect(ui.backend('free')).toHaveCount(0);
    await ui.backend('open').getByLabel('Allow default').check();

    // A clicked chip loads into the editor, which then edits it in place.
    await ui.chip('paid', 'allow token gold').click();
    await expect(ui.editor.getByLabel('Value')).toHaveValue('gold');
    await ui.editor.getByLabel('Value').fill('platinum');
    await ui.editor.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(ui.chip('paid', 'allow token platinum')).toBeVisible();
    await expect(ui.chip('paid', 'allow token gold')).toHaveCount(0);

    await ui.addBackend.click();
    await expect(ui.backend('auth1')).toBeVisible();
    await page.getByLabel('delete auth1').click();
    await expect(ui.backend('auth1')).toHaveCount(0);

    await ui.save.click();
    await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
    await expectConfigFile(server.configPath, (t) => t.includes('auth_backend open'));
    const text = await readFile(server.configPath, 'utf8');
    const paid = /auth_backend paid \{([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
    expect(paid).toContain('allow token platinum;');
    expect(paid).not.toContain('gold');
    expect(paid).toContain('deny ip 10.0.0.0/8;');
    expect(paid).toContain('allow ip 192.168.0.0/16;');
    expect(paid).toContain('backend http://127.0.0.1:9/auth;');
    const open = /auth_backend open \{([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
    expect(open).toContain('deny country RU;');
    expect(open).toContain('allow default;');
    expect(text).not.toContain('auth1');
    expect(text).not.toContain('free');
    await expect(ui.save).toBeDisabled();
    await expect(ui.addBackend).toBeDisabled();
  });

  test('Reset discards the unsaved changes', async ({ page, server }) => {
    const ui = new AuthBackendsPage(page);
    await expect(ui.backend('paid')).toBeVisible();
    await page.getByLabel('remove deny ip 10.0.0.0/8').click();
    await page.getByLabel('delete paid').click();
    await expect(ui.backend('paid')).toHaveCount(0);
    await ui.reset.click();
    await expect(ui.chip('paid', 'deny ip 10.0.0.0/8')).toBeVisible();
    await expect(ui.save).toBeDisabled();
    await expect(ui.reset).toBeDisabled();
    expect(await readFile(server.configPath, 'utf8')).toContain('deny ip 10.0.0.0/8;');
  });
});
