import type { Locator, Page } from '@playwright/test';
import { ADMIN } from '../../../server/test/harness.js';

export const LOGIN_KEY = 'sluice.login';

/** The logged-in frame: header status, offline message, menu, logout. */
export class ConsoleShell {
  readonly status: Locator;
  readonly offline: Locator;
  readonly logout: Locator;
  readonly menu: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.status = page.getByLabel('server status');
    this.offline = page.getByText('Offline mode, connection with server has been lost.');
    this.logout = page.getByRole('button', { name: 'Logout' });
    this.menu = page.getByRole('navigation', { name: 'main menu' });
  }

  /**
   * Logs in as the login form would: the session cookie lands in this page's browser context and the
   * login name in local storage, before the page's scripts run.
   */
  async rememberLogin(credentials = ADMIN): Promise<void> {
    const answer = await this.page.request.post(`${this.baseUrl}/admin/login`, { form: { ...credentials } });
    if (!answer.ok()) throw new Error(`login answered ${answer.status()}: ${await answer.text()}`);
    await this.page.addInitScript(
      ([key, value]) => {
        if (!localStorage.getItem(key)) localStorage.setItem(key, value);
      },
      [LOGIN_KEY, JSON.stringify({ login: credentials.login })] as const,
    );
  }

  async open(path = '/admin'): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`);
  }

  storedLogin(): Promise<string | null> {
    return this.page.evaluate((key) => localStorage.getItem(key), LOGIN_KEY);
  }

  /** Everything the page keeps in local and session storage, as one text to search. */
  storedText(): Promise<string> {
    return this.page.evaluate(() =>
      JSON.stringify([localStorage, sessionStorage].map((s) => Object.entries(s))),
    );
  }
}
