import { type Browser, type BrowserContext, expect, type Page, test as base } from '@playwright/test';
import {
  ADMIN,
  minimalConfig,
  onServerStop,
  type RunningServer,
  type ServerStop,
  startServer,
} from '../../server/test/harness.js';

export { ADMIN, expect, minimalConfig };

/**
 * A browser message logged this long after a stopped server answered again still counts as about
 * the stop: it reaches this process later than the browser logged it, more so on a busy machine.
 */
const AFTER_RESTART_GRACE_MS = 1000;

interface Logged {
  text: string;
  /** The page's url and the script or resource the message names as its source. */
  where: string[];
  atMs: number;
}

/**
 * Whether a browser error is about a server this test stopped, logged while it was down: a refused
 * load or websocket naming it, or anything its own pages logged then (the console losing its server).
 */
function aboutStoppedServer(error: Logged, stops: readonly ServerStop[]): boolean {
  return stops.some((stop) => {
    if (error.atMs < stop.fromMs || error.atMs > (stop.untilMs ?? Infinity) + AFTER_RESTART_GRACE_MS)
      return false;
    const host = new URL(stop.url).host;
    const named = new RegExp(`\\b${host.replaceAll('.', '\\.')}(?!\\d)`).test(error.text);
    return named || error.where.some((url) => URL.canParse(url) && new URL(url).origin === stop.url);
  });
}

/**
 * Fails the test on any console error or uncaught exception, except those a test says it expects and
 * browser errors about a server the test stopped, while it was stopped. Uncaught exceptions always count.
 */
export function watchConsole(page: Page, allowed: readonly RegExp[]): () => string[] {
  const logged: Logged[] = [];
  const uncaught: string[] = [];
  const stops: ServerStop[] = [];
  page.once(
    'close',
    onServerStop((stop) => stops.push(stop)),
  );
  page.on('console', (message) => {
    if (message.type() !== 'error' || allowed.some((re) => re.test(message.text()))) return;
    logged.push({ text: message.text(), where: [page.url(), message.location().url], atMs: Date.now() });
  });
  page.on('pageerror', (error) => {
    if (!allowed.some((re) => re.test(error.message))) uncaught.push(`uncaught: ${error.message}`);
  });
  return () => [
    ...logged.filter((error) => !aboutStoppedServer(error, stops)).map((e) => e.text),
    ...uncaught,
  ];
}

interface Fixtures {
  /** A real server of its own for each test, on a free port, with a fresh temp config. */
  server: RunningServer;
  /** The config text the server starts with (`{http}` is its port); the harness's minimal one by default. */
  serverConfig: string;
  /** Console errors and uncaught exceptions this test expects (a refused login logs its 403, …). */
  allowedConsoleErrors: RegExp[];
  /** Opens another browser context (a second operator), its page watched for console errors too. */
  openContext: () => Promise<{ context: BrowserContext; page: Page }>;
}

export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [[], { option: true }],
  serverConfig: [minimalConfig, { option: true }],

  server: async ({ serverConfig }, use) => {
    const server = await startServer({ config: serverConfig });
    await use(server);
    await server.cleanup();
  },

  // Depends on the server so that it is checked before the server stops: a request still in flight
  // when a test ends is cut by the stop, which is the test ending, not the console failing.
  page: async ({ page, allowedConsoleErrors, server }, use) => {
    void server;
    const errors = watchConsole(page, allowedConsoleErrors);
    await use(page);
    expect(errors(), 'console errors in the page').toEqual([]);
  },

  // Depends on the server for the same reason as page: its pages are checked before the server stops.
  openContext: async ({ browser, allowedConsoleErrors, server }, use) => {
    void server;
    const opened: { context: BrowserContext; errors: () => string[] }[] = [];
    await use(async () => {
      const context = await (browser as Browser).newContext();
      const page = await context.newPage();
      opened.push({ context, errors: watchConsole(page, allowedConsoleErrors) });
      return { context, page };
    });
    for (const { context, errors } of opened) {
      expect(errors(), 'console errors in another context').toEqual([]);
      await context.close();
    }
  },
});

/** Browser errors Chromium logs for an answer with this status (the console reports failed loads). */
export const failedLoad = (status: number) => new RegExp(`status of ${status}`);
