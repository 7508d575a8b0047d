import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { OriginServers } from './pages/origin-servers.js';
import { expectConfigFile, StreamPage } from './pages/stream-page.js';

const A = 'http://127.0.0.1:9';
const B = 'http://127.0.0.1:10';

test.use({ serverConfig: `${minimalConfig}source ${A} ${B} {\n  except a;\n}\n` });

test.beforeEach(async ({ page, server }) => {
  await new ConsoleShell(page, server.url).rememberLogin();
});

test('the mirror page edits overview, input, process and output, each saved under its position', async ({
  page,
  server,
}) => {
  await page.goto(`${server.url}/admin`);
  const origins = new OriginServers(page);
  await origins
    .head(`${A}, ${B}`)
    .getByRole('link', { name: `${A}, ${B}` })
    .click();
  await expect(page).toHaveURL(/\/admin\/mirror\/0$/);
  await expect(origins.head(`${A}, ${B}`)).toHaveAttribute('aria-selected', 'true');
  const tabs = page.getByRole('navigation', { name: 'mirror tabs' });
  await expect(tabs.getByRole('link')).toHaveText(['Overview', 'Input', 'Process', 'DVR', 'Output', 'Auth']);
  const form = new StreamPage(page);

  // Overview: description, ignored and taken streams, lists separated by comma or space.
  await expect(form.field('Ignored streams')).toHaveValue('a');
  await expect(form.save).toBeDisabled();
  await form.field('Description').fill('main origin');
  await form.field('Ignored streams').fill('a, b c');
  await form.field('Taken streams').fill('x y');
  await form.field('Taken streams').blur();
  await form.saveAndWait();
  await expectConfigFile(
    server.configPath,
    (t) => t.includes('main origin') && t.includes('except a b c;') && t.includes('only x y;'),
  );
  // The field keeps the three names (as typed, or as the saved list reads back: when it reformats
  // depends on whether the saved value arrives before the field loses its draft).
  await expect(form.field('Ignored streams')).toHaveValue(/^a,? b,? c$/);

  // Input: a url per 'Server URL N' field, an empty 'New URL' row, remove controls, cluster key.
  await tabs.getByRole('link', { name: 'Input', exact: true }).click();
  await expect(form.field('Server URL 1')).toHaveValue(A);
  await expect(form.field('Server URL 2')).toHaveValue(B);
  await expect(form.field('New URL')).toHaveValue('');
  await form.field('New URL').fill(' http://127.0.0.1:11 ');
  await expect(form.field('Server URL 3')).toHaveValue('http://127.0.0.1:11');
  await expect(form.field('New URL')).toHaveValue('');
  // Emptied and left: the url goes.
  await form.field('Server URL 2').fill('');
  await form.field('Server URL 2').blur();
  await expect(form.field('Server URL 2')).toHaveValue('http://127.0.0.1:11');
  await page.getByRole('button', { name: 'Remove Server URL 1' }).click();
  await expect(form.field('Server URL 1')).toHaveValue('http://127.0.0.1:11');
  await expect(form.field('Server URL 2')).toBeHidden();
  await expect(page.getByText('Remote server may require a cluster authorization key')).toBeVisible();
  await form.field('Cluster key').fill('secret');
  await form.field('Cluster key').blur();
  await form.saveAndWait();
  await expectConfigFile(
    server.configPath,
    (t) => /^source http:\/\/127\.0\.0\.1:11 \{/m.test(t) && t.includes('cluster_key secret;'),
  );
  // The last url can't go: a mirror needs one.
  await page.getByRole('button', { name: 'Remove Server URL 1' }).click();
  await expect(page.getByText('Server URL is required')).toBeVisible();
  await expect(form.save).toBeDisabled();
  await form.field('New URL').fill('http://127.0.0.1:12');
  await expect(form.save).toBeEnabled();
  await form.saveAndWait();
  await expectConfigFile(server.configPath, (t) => /^source http:\/\/127\.0\.0\.1:12 \{/m.test(t));

  // Process: thumbnails enabled, then disabled (thumbnails removed).
  await tabs.getByRole('link', { name: 'Process', exact: true }).click();
  await page.getByRole('radio', { name: 'enabled' }).click();
  await form.saveAndWait();
  await expectConfigFile(server.configPath, (t) => /thumbnails/.test(t));
  await page.getByRole('radio', { name: 'disabled' }).click();
  await form.saveAndWait();
  await expectConfigFile(server.configPath, (t) => !/thumbnails/.test(t));

  // Output: where mirrored streams play, and the shared output settings.
  await tabs.getByRole('link', { name: 'Output', exact: true }).click();
  await expect(page.getByText('replace {NAME} with the stream name')).toBeVisible();
  await form.field('Max sessions').fill('5');
  await form.field('Max sessions').blur();
  await form.field('Client timeout').fill('20');
  await form.field('Client timeout').blur();
  await form.saveAndWait();
  await expectConfigFile(server.configPath, (t) => t.includes('max_sessions 5'));
  await expectConfigFile(server.configPath, (t) => /^\s*clients_timeout 20s?;/m.test(t));

  // Auth: the shared tab, saved under the mirror.
  await tabs.getByRole('link', { name: 'Auth', exact: true }).click();
  await expect(page.getByTestId('media-auth')).toBeVisible();
  await form.field('Allowed domains').fill('example.com');
  await form.field('Allowed domains').blur();
  await form.saveAndWait();
  await expectConfigFile(server.configPath, (t) => t.includes('    domains example.com;'));
});

test('a mirrored page stays empty while no mirror lists the stream; an unknown mirror page too', async ({
  page,
  server,
}) => {
  const origins = new OriginServers(page);
  await page.goto(`${server.url}/admin/mirrored/nope`);
  // The config is loaded: the mirror is listed beside the page.
  await expect(origins.head(`${A}, ${B}`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'mirrored tabs' })).toHaveCount(0);
  await page.goto(`${server.url}/admin/mirror/7`);
  await expect(origins.head(`${A}, ${B}`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'mirror tabs' })).toHaveCount(0);
});
