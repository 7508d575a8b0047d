import { type Browser, type BrowserContext, expect, type Page, test as base } from '@playwright/test';
import { ADMIN, minimalConfig, type RunningServer, startServer } from '../../server/test/harness.js';

export { ADMIN, expect, minimalConfig };

/** Fails the test on any console error or uncaught exception, except those a test says it expects. */
export function watchConsole(page: Page, allowed: readonly RegExp[]): () => string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowed.some((re) => re.test(message.text())))
      errors.push(message.text());
  });
  page.on('pageerror', (error) => {
    if (!allowed.some((re) => re.test(error.message))) errors.push(`uncaught: ${error.message}`);
  });
  return () => errors;
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

  openContext: async ({ browser, allowedConsoleErrors }, use) => {
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
