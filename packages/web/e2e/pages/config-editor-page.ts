import type { Locator, Page } from '@playwright/test';

/** The Config editor tab (/admin/config/editor). */
export class ConfigEditorPage {
  readonly tab: Locator;
  readonly text: Locator;
  readonly save: Locator;
  readonly wrong: Locator;
  readonly saved: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'Config editor' });
    this.text = page.getByLabel('Config text');
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.wrong = page.getByRole('alert').filter({ hasText: 'Config is wrong' });
    this.saved = page.getByText('Saved.', { exact: true });
  }
}
