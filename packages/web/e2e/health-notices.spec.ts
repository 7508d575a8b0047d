import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { freePort } from '../../server/test/harness.js';
import { expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/** Holds a TCP port the way another program would, until closed. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, server };
}

// Spec 000 §2: each error notification is a line of the header; these come and go with the fault.
test('a media port held by another program is a header notice until it is freed', async ({
  page,
  server,
}) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open('/admin');
  await expect(shell.status).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Spec 000 §2: the header is 100 px, plus 50 px for each error notification.
  const headerHeight = async () => (await page.getByRole('banner').boundingBox())?.height;
  await expect.poll(headerHeight).toBe(100);

  const held = await holdPort();
  await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rtmp: held.port }),
  });
  const notice = page.getByRole('alert').filter({ hasText: `RTMP port ${held.port}` });
  await expect(notice).toContainText(`Can't listen on RTMP port ${held.port}`);
  await expect.poll(headerHeight).toBe(150);
  // Freed: the server takes the port on its next try and the line leaves the header.
  await new Promise<void>((resolve) => held.server.close(() => resolve()));
  await expect(notice).toHaveCount(0, { timeout: 20_000 });
  await expect.poll(headerHeight).toBe(100);
});

test('a config reload (SIGHUP) refused is a header notice until a reload succeeds', async ({
  page,
  server,
}) => {
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open('/admin');
  await expect(shell.status).toBeVisible();
  const good = await readFile(server.configPath, 'utf8');

  await writeFile(server.configPath, `${good}streams {\n`);
  server.process.kill('SIGHUP');
  const notice = page.getByRole('alert').filter({ hasText: 'Config reload (SIGHUP) refused' });
  await expect(notice).toContainText('Config reload (SIGHUP) refused, the running config is kept');
  await expect(shell.status).toBeVisible();

  await writeFile(server.configPath, `${good}# fixed by hand\n`);
  server.process.kill('SIGHUP');
  await expect(notice).toHaveCount(0);
});
