import { readFile } from 'node:fs/promises';
import { expect, failedLoad, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { ConfigUploadDialog, exportedConfig, uploadFile } from './pages/config-upload.js';
import { SettingsPage } from './pages/settings-page.js';

const lobby = `# the lobby camera, owned by facilities\nstream lobby {\n  url udp://239.0.0.1:1234;   # primary feed\n}\n\n`;
const hall = `# hall: to be replaced\nstream hall {\n  url udp://239.0.0.2:1234;\n}\n\n`;
const yard = `# yard camera (night only)\nstream yard {\n  url udp://239.0.0.3:1234;   # IR\n  title "Yard";\n}\n`;

test.use({
  serverConfig: `# edge node: hand-written notes\nhttp {http};\nedit_auth admin test-secret-pw;\n\n${lobby}${hall}${yard}`,
});

test('Upload config asks first with what changes; Cancel leaves the file, Confirm keeps the comments of unchanged streams', async ({
  page,
  server,
}) => {
  const shell = new ConsoleShell(page, server.url);
  const settings = new SettingsPage(page);
  const upload = new ConfigUploadDialog(page);
  await shell.rememberLogin();
  await shell.open('/admin/config');

  const config = await exportedConfig(server);
  config.streams.hall.urls = [{ url: 'udp://239.0.0.22:1234' }];
  config.streams.porch = { urls: [{ url: 'udp://239.0.0.4:1234' }] };
  config.rtmp = 1936;
  const file = await uploadFile(server, 'edge.json', JSON.stringify(config, null, 2));
  const original = await readFile(server.configPath, 'utf8');

  await settings.uploadConfig(file);
  await expect(upload.dialog).toBeVisible();
  await expect(upload.changes).toContainText('Streams: 1 added (porch), 1 changed (hall)');
  await expect(upload.changes).toContainText('Settings: 1 added (rtmp)');
  await upload.cancel.click();
  await expect(upload.dialog).toBeHidden();
  expect(await readFile(server.configPath, 'utf8')).toBe(original);
  await expect(settings.field('RTMP port')).toHaveValue('');

  // The same file again, confirmed this time.
  await settings.uploadConfig(file);
  await expect(upload.changes).toContainText('1 changed (hall)');
  await upload.confirm.click();
  await expect(settings.saved).toBeVisible();
  await expect(settings.field('RTMP port')).toHaveValue('1936');
  const text = await readFile(server.configPath, 'utf8');
  expect(text).toContain(lobby);
  expect(text).toContain(yard);
  expect(text).toContain('# edge node: hand-written notes\n');
  expect(text).toContain('udp://239.0.0.22:1234');
  expect(text).toMatch(/stream porch \{/);
});

test('a broken JSON file is named with its line and column, and nothing is sent', async ({
  page,
  server,
}) => {
  const shell = new ConsoleShell(page, server.url);
  const settings = new SettingsPage(page);
  const upload = new ConfigUploadDialog(page);
  await shell.rememberLogin();
  await shell.open('/admin/config');
  const original = await readFile(server.configPath, 'utf8');

  const file = await uploadFile(server, 'broken.json', '{\n  "http": [80],\n  "rtmp" 1935\n}\n');
  await settings.uploadConfig(file);
  await expect(upload.problem).toContainText('broken.json is not valid JSON: line 3, column 10');
  await expect(upload.dialog).toBeHidden();
  expect(await readFile(server.configPath, 'utf8')).toBe(original);
});

test.describe('a file the server would refuse', () => {
  // The refused preview answers 400, which Chromium logs.
  test.use({ allowedConsoleErrors: [failedLoad(400)] });

  test('says why before asking, and changes nothing', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    const settings = new SettingsPage(page);
    const upload = new ConfigUploadDialog(page);
    await shell.rememberLogin();
    await shell.open('/admin/config');
    const original = await readFile(server.configPath, 'utf8');

    const file = await uploadFile(server, 'no-admin.json', JSON.stringify({ http: [server.port] }));
    await settings.uploadConfig(file);
    await expect(upload.problem).toContainText("no-admin.json can't be uploaded: ");
    await expect(upload.problem).toContainText('edit_auth');
    await expect(upload.dialog).toBeHidden();
    expect(await readFile(server.configPath, 'utf8')).toBe(original);
  });
});
