import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** The Settings tab of global config (/admin/config). */
export class SettingsPage {
  readonly save: Locator;
  readonly saved: Locator;
  readonly download: Locator;
  readonly upload: Locator;
  readonly noHttpPortsWarning: Locator;

  constructor(readonly page: Page) {
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.saved = page.getByText('Saved.', { exact: true });
    this.download = page.getByRole('button', { name: 'Download config' });
    this.upload = page.getByRole('button', { name: 'Upload config' });
    this.noHttpPortsWarning = page.getByText(
      'With no HTTP ports you will lose access to this web interface.',
    );
  }

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  webScript(index: number): { prefix: Locator; path: Locator; extra: Locator } {
    const row = this.page.getByRole('group', { name: `Web script ${index + 1}` });
    return {
      prefix: row.getByLabel('Prefix'),
      path: row.getByLabel('Path'),
      extra: row.getByLabel('Extra params'),
    };
  }

  async saveAndWait(): Promise<void> {
    await expect(this.save).toBeEnabled();
    await this.save.click();
    await expect(this.saved).toBeVisible();
  }

  async downloadConfig(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.download.click()]);
    return download;
  }

  async uploadConfig(file: string): Promise<void> {
    const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), this.upload.click()]);
    await chooser.setFiles(file);
  }
}
