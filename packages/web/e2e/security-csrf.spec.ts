import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN, expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LoginPage } from './pages/login-page.js';

/**
 * The attacker's page: served from another port of the same host, so the browser counts it as the
 * same site and sends the SameSite=Strict session cookie along (issue 13 changed the config this way).
 * It tries every way a page can send a request without the server's consent, and records what it saw.
 */
function attackerPage(target: string): string {
  const api = `${target}/flussonic/api`;
  return `<!doctype html><title>attacker</title><body>
<form id="urlencoded" method="POST" action="${api}/modify_config"><input name="rtmp" value="1999"></form>
<form id="textplain" method="POST" enctype="text/plain" action="${api}/modify_config"><input name='{"rtmp":1998,"x":"' value='"}'></form>
<script>
window.results = {};
const note = (name, value) => (window.results[name] = value);
fetch('${api}/modify_config', { method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' }, body: '{"rtmp":1997}' })
  .then(() => note('textFetch', 'sent'), (e) => note('textFetch', 'failed: ' + e));
fetch('${api}/modify_config', { method: 'POST', credentials: 'include',
  headers: { 'content-type': 'application/json' }, body: '{"rtmp":1996}' })
  .then((r) => note('jsonFetch', 'answered ' + r.status), (e) => note('jsonFetch', 'failed: ' + e));
fetch('${api}/save_raw_config', { method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' }, body: 'rtmp 1995;' })
  .then(() => note('rawFetch', 'sent'), (e) => note('rawFetch', 'failed: ' + e));
const socket = new WebSocket('${target.replace(/^http/, 'ws')}/flussonic/api/events');
socket.onopen = () => { note('socket', 'open'); socket.send('read_config'); };
socket.onmessage = () => note('socketData', 'received');
socket.onclose = () => note('socketClosed', true);
</script></body>`;
}

async function serve(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test.describe('security: requests from another origin (CSRF)', () => {
  test('a page on another port of the same host changes nothing and gets no events socket', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.open();
    await new LoginPage(page).logIn(ADMIN.login, ADMIN.password);
    await expect(shell.status).toContainText('Version 0.1.0');
    const configBefore = await readFile(server.configPath, 'utf8');

    const attacker = await serve(attackerPage(server.url));
    try {
      // Another tab of the same logged-in browser.
      const evil = await page.context().newPage();
      await evil.goto(`${attacker.url}/`);
      await expect
        .poll(() => evil.evaluate(() => (window as unknown as { results: Record<string, unknown> }).results))
        // The JSON fetch needs the server's CORS consent, which it never gives.
        .toMatchObject({
          textFetch: 'sent',
          rawFetch: 'sent',
          socketClosed: true,
          jsonFetch: expect.stringMatching(/^failed/),
        });
      const results = await evil.evaluate(() => (window as unknown as { results: object }).results);
      expect(results).not.toHaveProperty('socket');
      expect(results).not.toHaveProperty('socketData');

      await evil.close();

      // Each form in a tab of its own: submitting one navigates its tab to the server's answer.
      for (const form of ['urlencoded', 'textplain']) {
        const tab = await page.context().newPage();
        await tab.goto(`${attacker.url}/`);
        const answer = tab.waitForResponse(
          (r) => r.url().endsWith('/modify_config') && r.request().method() === 'POST',
        );
        await tab.evaluate((id) => (document.getElementById(id) as HTMLFormElement).submit(), form);
        expect((await answer).status(), form).toBe(403);
        // The tab shows the refusal; it closes with the context (closing it mid-navigation can hang).
        await tab.waitForURL(/\/modify_config$/);
      }
    } finally {
      attacker.server.close();
    }
    expect(await readFile(server.configPath, 'utf8')).toBe(configBefore);
    // None of the attacker's RTMP ports (1995-1999) landed.
    const read = await server.api('/flussonic/api/read_config');
    expect(((await read.json()) as { rtmp?: number }).rtmp).toBeUndefined();
  });
});

test.describe('security: no password in the browser', () => {
  test('after login the storage holds no password, the websocket URL no credentials, and a reload stays logged in', async ({
    page,
    server,
  }) => {
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    const shell = new ConsoleShell(page, server.url);
    await shell.open();
    await new LoginPage(page).logIn(ADMIN.login, ADMIN.password);
    await expect(shell.status).toContainText('Version 0.1.0');
    await expect(shell.offline).toBeHidden();

    expect(await shell.storedText()).not.toContain(ADMIN.password);
    expect(sockets.length).toBeGreaterThan(0);
    for (const url of sockets) expect(new URL(url).search).toBe('');

    await page.reload();
    await expect(shell.status).toContainText('Version 0.1.0');
    expect(await shell.storedText()).not.toContain(ADMIN.password);
  });

  test('a password an older console left in storage is removed on load', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await page.addInitScript(
      (value) => localStorage.setItem('sluice.credentials', value),
      JSON.stringify(ADMIN),
    );
    await shell.open();
    await expect(new LoginPage(page).form).toBeVisible();
    expect(await shell.storedText()).not.toContain(ADMIN.password);
  });
});
