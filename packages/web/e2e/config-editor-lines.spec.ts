import { readFile } from 'node:fs/promises';
import { expect, failedLoad, test } from './fixtures.js';
import { ConfigEditorPage } from './pages/config-editor-page.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LineEditor } from './pages/line-editor.js';

// A refused parse answers 400, which Chromium logs.
test.use({ allowedConsoleErrors: [failedLoad(400)] });

/** 80 comment lines: the line an error is on is far below the first screen of the textarea. */
const filler = Array.from({ length: 80 }, (_, i) => `# note ${i + 1}\n`).join('');

async function openEditor(page: import('@playwright/test').Page, url: string) {
  const shell = new ConsoleShell(page, url);
  const editor = new ConfigEditorPage(page);
  await shell.rememberLogin();
  await shell.open('/admin/config/editor');
  await expect(editor.text).toHaveValue(/edit_auth admin test-secret-pw;/);
  return { editor, lines: new LineEditor(editor.text, page) };
}

test('the config editor numbers its lines, and the numbers scroll with the text', async ({
  page,
  server,
}) => {
  const { editor, lines } = await openEditor(page, server.url);
  const original = await editor.text.inputValue();
  const count = original.split('\n').length;
  await expect(lines.gutter).toHaveText(Array.from({ length: count }, (_, i) => String(i + 1)).join('\n'));

  await editor.text.fill(original + filler);
  await expect(lines.gutter).toContainText(`\n${count + 80}`);
  await editor.text.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect.poll(async () => (await lines.scrollTops())[0]).toBeGreaterThan(0);
  await expect.poll(async () => (await lines.scrollTops()).reduce((a, b) => a - b)).toBe(0);
});

test('a syntax error names its line, and the editor jumps to it and selects it', async ({ page, server }) => {
  const { editor, lines } = await openEditor(page, server.url);
  const original = await editor.text.inputValue();
  const text = `${original}${filler}stream x {\n  url udp://239.0.0.1:1;\n  title }\n}\n`;
  const bad = text.split('\n').indexOf('  title }') + 1;
  await editor.text.fill(text);
  await editor.text.evaluate((el) => (el.scrollTop = 0));
  await editor.save.click();

  await expect(editor.wrong).toContainText(new RegExp(`line ${bad}, column \\d+: `));
  await expect.poll(() => lines.selection()).toBe('  title }');
  await expect(editor.text).toBeFocused();
  await expect.poll(() => lines.lineInView(bad)).toBe(true);
  await expect(lines.errorLine).toHaveText(String(bad));
  await expect(lines.errorLine).toBeInViewport();
  expect(await readFile(server.configPath, 'utf8')).toBe(original);
});

test('a schema error names the line of its item, and the editor jumps to it', async ({ page, server }) => {
  const { editor, lines } = await openEditor(page, server.url);
  const original = await editor.text.inputValue();
  const text = `${original}${filler}stream bad {\n  url udp://239.0.0.1:1;\n  title [a b];\n}\n`;
  const bad = text.split('\n').indexOf('  title [a b];') + 1;
  await editor.text.fill(text);
  await editor.text.evaluate((el) => (el.scrollTop = 0));
  await editor.save.click();

  await expect(editor.wrong).toContainText(`line ${bad}, column 3: streams.bad.title`);
  await expect.poll(() => lines.selection()).toBe('  title [a b];');
  await expect.poll(() => lines.lineInView(bad)).toBe(true);
  await expect(lines.errorLine).toHaveText(String(bad));
  expect(await readFile(server.configPath, 'utf8')).toBe(original);
});
