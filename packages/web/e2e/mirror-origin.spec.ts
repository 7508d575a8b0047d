import { freePort, type RunningServer, startServer } from '../../server/test/harness.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { PlayModal } from './pages/media-list-page.js';
import { OriginServers } from './pages/origin-servers.js';
import { expectConfigFile, expectPlaying } from './pages/stream-page.js';

/**
 * Two real servers on loopback: the test's server is the mirror, a second one is the origin with
 * a static stream (cam) and an on-demand one (idle), answering peers that hold its cluster key.
 */
const ORIGIN_CONFIG =
  `${minimalConfig}cluster_key K;\n` +
  'stream cam {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n' +
  'stream idle {\n  url test://?size=160x90&bitrate=100;\n}\n';
/** Polls of the origin and first media through the mirror take a few seconds on a loaded machine. */
const ORIGIN_TIMEOUT_MS = 30_000;

// The test's server is the mirror: it polls the origin each second rather than every 2 s.
test.use({ serverConfig: `${minimalConfig}mirror_poll_seconds 1;\n` });

let origin: RunningServer;
test.beforeEach(async ({ page, server }) => {
  origin = await startServer({ config: ORIGIN_CONFIG });
  const shell = new ConsoleShell(page, server.url);
  await shell.rememberLogin();
  await shell.open();
});
test.afterEach(async () => {
  await origin.cleanup();
});

const status = (row: ReturnType<OriginServers['stream']>) => row.getByRole('cell').nth(1);

test("a mirror added from the form is online, lists the origin's streams and plays one", async ({
  page,
  server,
}) => {
  const origins = new OriginServers(page);
  await origins.add(origin.url, 'K');
  await expectConfigFile(server.configPath, (t) => t.includes(`source ${origin.url} {`));
  await expect(origins.server(origin.url, origin.url)).toContainText('online', {
    timeout: ORIGIN_TIMEOUT_MS,
  });
  const cam = origins.stream(origin.url, 'cam');
  await expect(cam).toBeVisible();
  await expect(origins.stream(origin.url, 'idle')).toBeVisible();
  // A static mirror pulls every stream: cam runs here with its figures.
  await expect(status(cam)).toHaveText('online', { timeout: ORIGIN_TIMEOUT_MS });
  await expect(cam.getByRole('cell').nth(3)).toHaveText(/kbit\/s$/, { timeout: ORIGIN_TIMEOUT_MS });

  await cam.getByRole('button', { name: 'Play cam' }).click();
  const modal = new PlayModal(page);
  await expect(modal.dialog).toContainText('cam');
  await expectPlaying(modal.video);
  await modal.close.click();

  // The mirrored stream's page: found through its mirror, read-only, with its output and clients.
  await cam.getByRole('link', { name: 'cam' }).click();
  await expect(page).toHaveURL(/\/admin\/mirrored\/cam$/);
  const tabs = page.getByRole('navigation', { name: 'mirrored tabs' });
  await expect(tabs.getByRole('link')).toHaveText(['Overview', 'Output', 'Clients']);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('cam');
  await expect(page.getByLabel('Name', { exact: true })).not.toBeEditable();
  await expect(page.getByLabel('Status', { exact: true })).toHaveValue(/^online/);
  await tabs.getByRole('link', { name: 'Output', exact: true }).click();
  await expect(page.getByLabel('hls url').first()).toHaveValue(`${server.url}/cam/index.m3u8`);
  await tabs.getByRole('link', { name: 'Clients', exact: true }).click();
  const player = new AbortController();
  const response = await fetch(`${server.url}/cam/mpegts`, { signal: player.signal });
  expect(response.ok).toBe(true);
  await expect(
    page.getByRole('table', { name: 'clients' }).getByRole('cell', { name: 'mpegts', exact: true }),
  ).toBeVisible({ timeout: 20_000 });
  player.abort();
  await page.getByRole('link', { name: 'Mirror config' }).click();
  await expect(page).toHaveURL(/\/admin\/mirror\/0$/);
  await page.getByRole('navigation', { name: 'mirror tabs' }).getByRole('link', { name: 'Output' }).click();
  await expect(page.getByRole('link', { name: `${server.url}/cam/index.m3u8` })).toBeVisible();
});

test('switches the default mode, hides on-demand streams, ignores a stream and restarts it as static', async ({
  page,
  server,
}) => {
  const origins = new OriginServers(page);
  await origins.add(origin.url, 'K');
  const cam = origins.stream(origin.url, 'cam');
  await expect(status(cam)).toHaveText('online', { timeout: ORIGIN_TIMEOUT_MS });

  // On demand: an only list; every stream is on demand now, so hiding on-demand streams hides them.
  await origins.mode(origin.url, 'on demand').click();
  await expectConfigFile(server.configPath, (t) => /^\s*only \[\];$/m.test(t));
  const show = origins.head(origin.url).getByRole('switch', { name: 'Show on-demand streams' });
  await show.uncheck();
  await expect(cam).toBeHidden();
  await expect(origins.stream(origin.url, 'idle')).toBeHidden();
  await show.check();
  await expect(cam).toBeVisible();

  // Ignored: in except, listed with its ways back.
  await cam.getByRole('button', { name: 'Ignore cam' }).click();
  await expectConfigFile(server.configPath, (t) => t.includes('except cam;'));
  const restart = origins.mirror(origin.url).getByRole('button', { name: 'Restart cam as static' });
  await expect(restart).toBeVisible();
  await expect(origins.mirror(origin.url).getByRole('row', { name: 'cam' })).toHaveCount(1, {
    timeout: ORIGIN_TIMEOUT_MS,
  });

  // Restarted as static: from except to only, and it runs again; idle stays on demand.
  await restart.click();
  await expectConfigFile(server.configPath, (t) => t.includes('only cam;') && !t.includes('except'));
  await expect(status(cam)).toHaveText('online', { timeout: ORIGIN_TIMEOUT_MS });
  await show.uncheck();
  await expect(cam).toBeVisible();
  await expect(origins.stream(origin.url, 'idle')).toBeHidden();
});

test('reports an unreachable origin and a wrong cluster key as errors', async ({ page }) => {
  const origins = new OriginServers(page);
  // A port nothing listens on.
  const dead = `http://127.0.0.1:${await freePort()}`;
  await origins.add(dead);
  await expect(origins.server(dead, dead)).toContainText('error: ', { timeout: ORIGIN_TIMEOUT_MS });

  await origins.add(origin.url, 'wrong');
  await expect(origins.server(origin.url, origin.url)).toContainText('error: ', {
    timeout: ORIGIN_TIMEOUT_MS,
  });
  await expect(origins.stream(origin.url, 'cam')).toBeHidden();

  // The right key: online.
  await origins.head(origin.url).getByRole('link', { name: origin.url }).click();
  await page.getByRole('navigation', { name: 'mirror tabs' }).getByRole('link', { name: 'Input' }).click();
  await page.getByLabel('Cluster key', { exact: true }).fill('K');
  await page.getByLabel('Cluster key', { exact: true }).blur();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(origins.server(origin.url, origin.url)).toContainText('online', {
    timeout: ORIGIN_TIMEOUT_MS,
  });
});
