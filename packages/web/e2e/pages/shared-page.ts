import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { watchConsole } from '../fixtures.js';
import { ConsoleShell } from './console-shell.js';

/**
 * One logged-in browser context for a file of page visits against one shared server (issue 26).
 * Each test still loads its page afresh with page.goto, but a new context per test made Chromium
 * fetch and compile the whole console again each time (about 1 s a page on a busy machine). Console
 * errors still fail the test that logged them: each test checks those logged since it began.
 */
export class SharedLoggedInPage {
  private shared: { context: BrowserContext; page: Page; errors: () => string[] } | undefined;

  constructor(private readonly viewport?: { width: number; height: number }) {}

  /** A Playwright fixture body: the shared page, made and logged in at first use. */
  async use(browser: Browser, serverUrl: string, use: (page: Page) => Promise<void>): Promise<void> {
    if (!this.shared) {
      const context = await browser.newContext(this.viewport ? { viewport: this.viewport } : {});
      const page = await context.newPage();
      await new ConsoleShell(page, serverUrl).rememberLogin();
      this.shared = { context, page, errors: watchConsole(page, []) };
    }
    const { page, errors } = this.shared;
    const before = errors().length;
    await use(page);
    expect(errors().slice(before), 'console errors in the page').toEqual([]);
  }

  async close(): Promise<void> {
    await this.shared?.context.close();
    this.shared = undefined;
  }
}
