import type { Locator, Page } from '@playwright/test';
import { ADMIN } from '../../../server/test/harness.js';

export const CREDENTIALS_KEY = 'sluice.credentials';

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

  /** Stores the admin credentials as a login would, before the page's scripts run. */
  async rememberLogin(credentials = ADMIN): Promise<void> {
    await this.page.addInitScript(
      ([key, value]) => {
        if (!localStorage.getItem(key)) localStorage.setItem(key, value);
      },
      [CREDENTIALS_KEY, JSON.stringify(credentials)] as const,
    );
  }

  async open(path = '/admin'): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`);
  }

  storedCredentials(): Promise<string | null> {
    return this.page.evaluate((key) => localStorage.getItem(key), CREDENTIALS_KEY);
  }
}
