import { expect, type Locator, type Page } from '@playwright/test';

/** A VOD location's page (/admin/vod/{prefix}) and its tabs. */
export class VodPage {
  readonly tabs: Locator;
  /** The overview's Save (name, description, paths) or a tab's only Save. */
  readonly save: Locator;
  readonly saved: Locator;
  readonly paths: Locator;
  readonly settings: Locator;

  constructor(readonly page: Page) {
    this.tabs = page.getByRole('navigation', { name: 'vod tabs' });
    this.save = page.getByRole('button', { name: 'Save', exact: true }).first();
    this.saved = page.getByText('Saved.', { exact: true });
    this.paths = page.getByRole('group', { name: 'Source paths' });
    this.settings = page.getByRole('region', { name: 'VOD settings' });
  }

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  tab(label: string): Locator {
    return this.tabs.getByRole('link', { name: label, exact: true });
  }

  /** The path inputs, top to bottom, and their values. */
  async pathValues(): Promise<string[]> {
    return this.paths
      .getByRole('textbox')
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
  }

  /** One of the VOD settings: its field and its own Save. */
  setting(label: string): { input: Locator; save: Locator } {
    const group = this.settings.getByRole('group', { name: label });
    return {
      input: group.getByLabel(label, { exact: true }),
      save: group.getByRole('button', { name: 'Save' }),
    };
  }

  async saveAndWait(): Promise<void> {
    await expect(this.save).toBeEnabled();
    await this.save.click();
    await expect(this.saved.first()).toBeVisible();
  }
}

/** A VOD file's page (/admin/file/{PREFIX/PATH}). */
export class FilePage {
  readonly tabs: Locator;
  readonly video: Locator;
  readonly stats: Locator;
  readonly links: Locator;

  constructor(readonly page: Page) {
    this.tabs = page.getByRole('navigation', { name: 'file tabs' });
    this.video = page.getByLabel('player');
    this.stats = page.getByRole('table', { name: 'file stats' });
    this.links = page.getByRole('table', { name: 'output links' });
  }

  tab(label: string): Locator {
    return this.tabs.getByRole('link', { name: label, exact: true });
  }

  /** A figure of the stats table by its label ('Clients', 'Bytes out', …). */
  stat(label: string): Locator {
    return this.stats.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell');
  }
}
