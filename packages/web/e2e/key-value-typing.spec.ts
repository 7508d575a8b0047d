import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, StreamPage } from './pages/stream-page.js';

const KEY_ERROR = 'Key should start with character, not digit or special symbol.';
const VALUE_ERROR = 'Value should not include # symbol.';

/**
 * The key/value editor (issue 17): what an operator types stays in the field, keystroke by
 * keystroke, with focus; invalid input shows the spec's message (001 §5) instead of vanishing.
 */
test.describe('key/value editor typing', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url hls://example.invalid/a.m3u8;\n}\n`,
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/demo/input/0`);
  });

  test('a key typed with a leading digit keeps every character and focus, and says why it is refused', async ({
    page,
  }) => {
    const key = page.getByLabel('key').first();
    await key.click();
    await key.pressSequentially('1abc');
    await expect(key).toHaveValue('1abc');
    await expect(key).toBeFocused();
    await expect(page.getByText(KEY_ERROR)).toBeVisible();
    // Fixing it in place clears the message; nothing was lost on the way.
    await page.keyboard.press('Home');
    await page.keyboard.press('Delete');
    await expect(key).toHaveValue('abc');
    await expect(page.getByText(KEY_ERROR)).toHaveCount(0);
  });

  test('a value typed with # keeps every character and focus, says why, and saves once fixed', async ({
    page,
    server,
  }) => {
    const key = page.getByLabel('key').first();
    await key.click();
    await key.pressSequentially('mode');
    await expect(key).toHaveValue('mode');
    await expect(key).toBeFocused();
    // The first valid keystrokes commit the row: the value field is the same one afterwards.
    const value = page.getByLabel('value').first();
    await value.click();
    await value.pressSequentially('a#b');
    await expect(value).toHaveValue('a#b');
    await expect(value).toBeFocused();
    await expect(page.getByText(VALUE_ERROR)).toBeVisible();
    await value.press('ArrowLeft');
    await value.press('Backspace');
    await expect(value).toHaveValue('ab');
    await expect(page.getByText(VALUE_ERROR)).toHaveCount(0);
    const stream = new StreamPage(page);
    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (text) => /mode=ab/.test(text) || /mode ab/.test(text));
  });

  test('the global Meta editor keeps typing the same way', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/config`);
    // The settings page's one key/value editor is Meta's.
    const key = page.getByLabel('key', { exact: true }).first();
    await key.click();
    await key.pressSequentially('2nd');
    await expect(key).toHaveValue('2nd');
    await expect(key).toBeFocused();
    await expect(page.getByText(KEY_ERROR)).toBeVisible();
  });
});
