import { expect, failedLoad, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { OriginServers } from './pages/origin-servers.js';
import { expectConfigFile } from './pages/stream-page.js';

/** The Origin servers section without an origin to reach: what the console saves. */
const DEAD = 'http://127.0.0.1:9';

test.beforeEach(async ({ page, server }) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
});

test('adds a mirror from the form, switches its default mode, deletes it after asking', async ({
  page,
  server,
}) => {
  const origins = new OriginServers(page);
  await expect(origins.create).toBeDisabled();
  await origins.url.fill(` ${DEAD} `);
  await expect(origins.url).toHaveValue(DEAD);
  await origins.clusterKey.fill('k1');
  await origins.create.click();
  await expect(origins.head(DEAD)).toBeVisible();
  await expect(origins.url).toHaveValue('');
  await expectConfigFile(server.configPath, (t) =>
    /^source http:\/\/127\.0\.0\.1:9 \{\s*cluster_key k1;\s*\}/m.test(t),
  );

  // Static: no only list. On demand: an only list (empty: nothing static).
  await expect(origins.mode(DEAD, 'static')).toBeChecked();
  await origins.mode(DEAD, 'on demand').click();
  await expectConfigFile(server.configPath, (t) => /^\s*only \[\];$/m.test(t));
  await expect(origins.mode(DEAD, 'on demand')).toBeChecked();
  await origins.mode(DEAD, 'static').click();
  await expectConfigFile(server.configPath, (t) => t.includes('source ') && !/\bonly\b/.test(t));
  await expect(origins.mode(DEAD, 'static')).toBeChecked();

  await origins
    .head(DEAD)
    .getByRole('button', { name: `Delete ${DEAD}` })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(`Really delete ${DEAD} from config?`)).toBeVisible();
  await expect(dialog.getByText('DVR archive would remain.')).toBeHidden();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(origins.mirror(DEAD)).toBeHidden();
  await expectConfigFile(server.configPath, (t) => !t.includes('source '));
});

test.describe('a mirror with ignored streams', () => {
  test.use({
    serverConfig: `${minimalConfig}source ${DEAD} {\n  except a b;\n  dvr /tmp/sluice-e2e-mirror-dvr 1d;\n}\n`,
    allowedConsoleErrors: [failedLoad(500)],
  });

  test('a failed restart re-enables its button; restarting as static takes the stream out of except', async ({
    page,
    server,
  }) => {
    const origins = new OriginServers(page);
    const restart = origins.stream(DEAD, 'a').getByRole('button', { name: 'Restart a as static' });
    await expect(origins.stream(DEAD, 'a')).toContainText('ignored');
    await expect(origins.stream(DEAD, 'b')).toContainText('ignored');

    // The first save fails after a while: the button is locked while it runs, then usable again.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/flussonic/api/modify_config', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"disk full"}' });
    });
    await restart.click();
    await expect(restart).toBeDisabled();
    answer();
    await expect(restart).toBeEnabled();
    await expect(origins.stream(DEAD, 'a').getByRole('alert')).toBeVisible();
    await expectConfigFile(server.configPath, (t) => t.includes('except a b;'));

    await page.unroute('**/flussonic/api/modify_config');
    await restart.click();
    // A static mirror pulls every stream not ignored statically: no only list appears.
    await expectConfigFile(server.configPath, (t) => t.includes('except b;') && !/\bonly\b/.test(t));
    await expect(origins.stream(DEAD, 'a')).toBeHidden();

    // On demand in a static mirror: the mirror gets an only list of the streams static now (none listed here).
    await origins.stream(DEAD, 'b').getByRole('button', { name: 'Restart b on demand' }).click();
    await expectConfigFile(server.configPath, (t) => !/\bexcept\b/.test(t) && /^\s*only \[\];$/m.test(t));
    await expect(origins.mode(DEAD, 'on demand')).toBeChecked();
  });

  test('warns that the DVR archive remains when deleting a mirror that records', async ({ page }) => {
    const origins = new OriginServers(page);
    await origins
      .head(DEAD)
      .getByRole('button', { name: `Delete ${DEAD}` })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(`Really delete ${DEAD} from config?`)).toBeVisible();
    await expect(dialog.getByText('DVR archive would remain.')).toBeVisible();
  });
});
