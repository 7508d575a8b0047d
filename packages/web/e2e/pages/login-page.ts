import type { Locator, Page } from '@playwright/test';

export class LoginPage {
  readonly form: Locator;
  readonly login: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly invalid: Locator;
  readonly serverError: Locator;
  readonly retry: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole('form', { name: 'Log in to Sluice' });
    this.login = page.getByRole('textbox', { name: 'Login' });
    this.password = page.getByRole('textbox', { name: 'Password' });
    this.submit = page.getByRole('button', { name: 'Log in' });
    this.invalid = page.getByText('Invalid login/password');
    this.serverError = page.getByText('Server error', { exact: true });
    this.retry = page.getByRole('button', { name: 'Retry' });
  }

  async logIn(login: string, password: string): Promise<void> {
    await this.login.fill(login);
    await this.password.fill(password);
    await this.submit.click();
  }
}
