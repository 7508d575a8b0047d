import { freePort, waitFor } from '../../server/test/harness.js';
import { tlsAnswers } from '../../server/test/https-helpers.js';
import { ADMIN, expect, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LoginPage } from './pages/login-page.js';

// The certificate is the self-signed one the server made at first start: accepted here as a user would.
test.use({ ignoreHTTPSErrors: true });

test('an https port added to the config serves the console over HTTP/2, live updates included', async ({
  page,
  server,
}) => {
  const port = await freePort();
  const saved = await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ https: [port] }),
  });
  expect(saved.status).toBe(200);
  await waitFor(() => tlsAnswers(port));

  const url = `https://localhost:${port}`;
  const events = page.waitForEvent('websocket', (ws) => ws.url().includes('/flussonic/api/events'));
  await page.goto(`${url}/admin`);
  await new LoginPage(page).logIn(ADMIN.login, ADMIN.password);
  // The header status comes over the events websocket (wss://, HTTP/1.1 upgrade beside the h2 page).
  await expect(new ConsoleShell(page, url).status).toContainText('Version 0.1.0');
  expect((await events).url()).toMatch(/^wss:\/\//);
  const protocol = await page.evaluate(
    () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
  );
  expect(protocol).toBe('h2');
});
