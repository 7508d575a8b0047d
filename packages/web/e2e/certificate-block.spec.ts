import { expect, failedLoad, minimalConfig, test as base } from './fixtures.js';
import { freePort, startServer } from '../../server/test/harness.js';
import { makePebbleCa, type PebbleCa, type Pebble, startPebble } from '../../server/test/pebble.js';
import { CertificateBlock } from './pages/certificate-block.js';
import { ConsoleShell } from './pages/console-shell.js';

const VIEWER = { login: 'watcher', password: 'look-only-pw' };
const IP_REFUSAL = "Can't issue a certificate for IP address. Switch to domain name and reload page";

/** The server trusts the CA of a pebble (Debian's ACME test CA) that a test may start on `port`. */
const test = base.extend<{ acme: { ca: PebbleCa; port: number } }>({
  // eslint-disable-next-line no-empty-pattern
  acme: async ({}, use) => use({ ca: await makePebbleCa(), port: await freePort() }),
  server: async ({ acme }, use) => {
    const server = await startServer({
      config:
        `${minimalConfig}view_auth ${VIEWER.login} ${VIEWER.password};\n` +
        `letsencrypt_directory https://localhost:${acme.port}/dir;\n`,
      env: { SLUICE_ACME_CA_FILE: acme.ca.caFile },
    });
    await use(server);
    await server.cleanup();
  },
});

test.describe('Settings: the certificate block and LetsEncrypt', () => {
  test('shows the self-signed certificate, and refuses to issue on a page opened by IP address', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open('/admin/config');
    const block = new CertificateBlock(page);
    await expect(block.selfSigned).toBeVisible();
    await expect(block.row('Domains')).toContainText('127.0.0.1');
    await expect(block.row('Expires')).toHaveText(/^\d{4}-\d\d-\d\d$/);
    await expect(block.domains).toHaveValue('127.0.0.1');
    await block.issue.click();
    await expect(block.alert).toHaveText(IP_REFUSAL);
  });

  test.describe('opened by name', () => {
    let pebble: Pebble | undefined;
    test.afterEach(async () => pebble?.stop());
    // The failed order's 502 is logged by the browser as a failed load.
    test.use({ allowedConsoleErrors: [failedLoad(502)] });

    test('a failed order says so with the reason; a certificate from the CA is shown and the page reloads with it', async ({
      page,
      server,
      acme,
    }) => {
      pebble = await startPebble({ ca: acme.ca, port: acme.port, httpPort: server.port });
      const shell = new ConsoleShell(page, `http://localhost:${server.port}`);
      await shell.rememberLogin();
      await shell.open('/admin/config');
      const block = new CertificateBlock(page);
      await expect(block.domains).toHaveValue('localhost');
      await expect(block.selfSigned).toBeVisible();

      // .invalid never resolves: the CA can't reach the challenge.
      await block.domains.fill('sluice-test.invalid');
      await block.issue.click();
      await expect(block.alert).toContainText('Could not obtain certificate');
      await expect(block.alert).toContainText('sluice-test.invalid');
      await expect(block.selfSigned).toBeVisible();

      await block.domains.fill('localhost');
      // Gone once the page reloads.
      await page.evaluate(() => Object.assign(window, { beforeReload: true }));
      await block.issue.click();
      await expect(block.obtained).toBeVisible();
      await expect(block.row('Issuer')).toContainText('Pebble Intermediate CA');
      await expect.poll(() => page.evaluate(() => 'beforeReload' in window)).toBe(false);
      await expect(block.row('Issuer')).toContainText('Pebble Intermediate CA');
      await expect(block.row('Domains')).toHaveText('localhost');
      await expect(block.selfSigned).toHaveCount(0);
      await expect(block.alert).toHaveCount(0);
    });
  });

  test('a view-only login sees the certificate and no way to issue one', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin(VIEWER);
    await shell.open('/admin/config');
    const block = new CertificateBlock(page);
    await expect(block.row('Issuer')).not.toBeEmpty();
    await expect(block.selfSigned).toBeVisible();
    await expect(block.issue).toHaveCount(0);
    await expect(block.domains).toHaveCount(0);
  });
});
