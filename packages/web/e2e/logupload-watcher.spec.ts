import { createServer, type Server } from 'node:http';
import { test as base } from '@playwright/test';
import { freePort, type RunningServer, startServer } from '../../server/test/harness.js';
import { startTestSshd } from '../../server/test/sshd-helper.js';
import { expect, failedLoad, minimalConfig, watchConsole } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/**
 * The Log upload and Watcher pages (spec 002 §2, §4) against the real server and a tiny support
 * endpoint on loopback: one server for the file; each test sets the config it needs via the API.
 */
let server: RunningServer;
let receiver: Server;
let receiverUrl: string;
const received: Buffer[] = [];

const test = base.extend<{ allowedConsoleErrors: RegExp[] }>({
  allowedConsoleErrors: [[], { option: true }],
  page: async ({ page, allowedConsoleErrors }, use) => {
    const errors = watchConsole(page, allowedConsoleErrors);
    await use(page);
    expect(errors(), 'console errors in the page').toEqual([]);
  },
});

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks));
      if (req.url === '/fail') res.writeHead(503).end();
      else
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ticket: 'SUP-7781' }));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${port}`;
  server = await startServer({ config: minimalConfig });
});
test.afterAll(async () => {
  await server?.cleanup();
  receiver?.close();
});

async function modify(delta: Record<string, unknown>): Promise<void> {
  const answer = await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(delta),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}
const readConfig = async () =>
  (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;

async function open(page: import('@playwright/test').Page, path: string): Promise<void> {
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}${path}`);
}

test('an upload to the support URL shows the ticket id; a short description is refused', async ({ page }) => {
  await modify({ support_url: `${receiverUrl}/upload` });
  await open(page, '/admin/logupload');
  const description = page.getByLabel('Description');
  await description.fill('abc');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Description required (more than 3 characters)')).toBeVisible();
  const before = received.length;
  await description.fill('Camera 4 freezes every night');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('support-ticket')).toHaveText('SUP-7781');
  await expect(page.getByText('Submited')).toBeVisible();
  // The receiver got a gzip bundle.
  expect(received.length).toBe(before + 1);
  expect(received.at(-1)!.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
});

test.describe('failures', () => {
  test.use({ allowedConsoleErrors: [failedLoad(502)] });
  test("a failed upload says 'Server error' and keeps the bundle; no URL downloads it", async ({ page }) => {
    await modify({ support_url: `${receiverUrl}/fail` });
    await open(page, '/admin/logupload');
    await page.getByLabel('Description').fill('upload that will fail');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Server error', { exact: true })).toBeVisible();
    const kept = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the diagnostics bundle' }).click();
    expect((await kept).suggestedFilename()).toMatch(/^sluice-diagnostics-.*\.tar\.gz$/);

    await modify({ support_url: null });
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect((await downloaded).suggestedFilename()).toMatch(/\.tar\.gz$/);
    await expect(page.getByText(/No support URL is set/)).toBeVisible();
  });
});

test('with no support SSH host the toggle says so and does nothing', async ({ page }) => {
  await open(page, '/admin/logupload');
  const access = page.getByRole('region', { name: 'Support SSH access' });
  await expect(access.getByRole('status')).toHaveText(/No support SSH host is set/);
  await expect(access.getByRole('button', { name: 'SSH access disabled' })).toBeDisabled();
});

test('with a support SSH host the page shows the public key the API gives, and once support has it the forwarded console port', async ({
  page,
}) => {
  // A real unprivileged sshd on loopback stands in for the support host (as in support-ssh-tunnel.test.ts).
  const sshd = await startTestSshd();
  try {
    await modify({ support_ssh: sshd.destination, support_url: `${receiverUrl}/upload` });
    const status = async () =>
      (await (await server.api('/flussonic/api/ssh_agent_enabled')).json()) as Record<string, any>;
    const { public_key: publicKey } = await status();
    expect(publicKey).toMatch(/^ssh-ed25519 \S+ sluice-support$/);
    await open(page, '/admin/logupload');
    const access = page.getByRole('region', { name: 'Support SSH access' });
    await expect(access.getByLabel('Server public key for support')).toHaveValue(publicKey);
    await expect(access.getByLabel('Server public key for support')).toHaveAttribute('readonly', '');

    await sshd.authorize(publicKey);
    await access.getByRole('button', { name: 'SSH access disabled' }).click();
    await page.getByRole('button', { name: 'I agree, enable access' }).click();
    await expect(access.getByRole('status')).toHaveAttribute('data-state', 'running');
    const running = await status();
    expect(running.remote_console_port).toBeGreaterThan(0);
    await expect(access.getByTestId('support-console-port')).toHaveText(
      `Console through the tunnel: ${sshd.destination} port ${running.remote_console_port}`,
    );
    await access.getByRole('button', { name: 'SSH access enabled' }).click();
    await expect(access.getByRole('status')).toHaveAttribute('data-state', 'stopped');
    await expect(access.getByTestId('support-console-port')).toHaveCount(0);
  } finally {
    await modify({ support_ssh: null });
    await sshd.stop();
  }
});

test('Watcher: Save sets the vsaas database, endpoint and rproxy with a random 14-character key', async ({
  page,
}) => {
  await open(page, '/admin/watcher');
  await expect(page.getByText('Flussonic Watcher is disabled on this license')).toBeVisible();
  const keys: string[] = [];
  for (const database of ['/var/lib/vsaas/one.db', '/var/lib/vsaas/two.db']) {
    await page.getByLabel('Database path').fill(database);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
    // Sluice runs no Watcher: the saved path carries the console's "not applied" mark.
    await expect(page.getByLabel('Watcher database not applied')).toBeVisible();
    const plugins = (await readConfig()).plugins;
    expect(plugins.vsaas).toEqual({ database, endpoint: 'enabled' });
    expect(plugins.rproxy.endpoint_auth).toBe('vsaas');
    expect(plugins.rproxy.streampoint_key).toMatch(/^[A-Za-z0-9]{14}$/);
    keys.push(plugins.rproxy.streampoint_key);
    // rproxy removed through the API so the next save makes a new key; then the database emptied from
    // the page (its save waits for the view past both edits): the vsaas plugin goes.
    await modify({ plugins: { rproxy: null } });
    await page.getByLabel('Database path').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await readConfig()).plugins?.vsaas).toBeUndefined();
  }
  expect(keys[0]).not.toBe(keys[1]);
});
