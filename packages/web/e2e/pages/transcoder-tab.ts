import { expect, type Locator, type Page } from '@playwright/test';

/** A stream's Transcoder tab (/admin/standalone/{name}/transcoder). */
export class TranscoderTab {
  readonly save: Locator;
  readonly saved: Locator;
  readonly audio: Locator;
  readonly other: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.saved = page.getByText('Saved.', { exact: true });
    this.audio = page.getByRole('region', { name: 'Audio' });
    this.other = page.getByRole('region', { name: 'Other settings' });
    this.dialog = page.getByRole('dialog');
  }

  async open(baseUrl: string, stream: string): Promise<void> {
    await this.page.goto(`${baseUrl}/admin/standalone/${stream}/transcoder`);
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** A control of the tab outside the sections (Hardware, Device ID…). */
  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  track(index: number): Locator {
    return this.page.getByRole('region', { name: `Video track ${index}` });
  }

  trackField(index: number, label: string): Locator {
    return this.track(index).getByLabel(label, { exact: true });
  }

  async addPreset(label: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Video track presets' }).click();
    await this.page.getByRole('menuitem', { name: label }).click();
  }

  /** Types into a field and expects its message under it (the input is described by it), or none. */
  async expectMessage(field: Locator, text: string, message: string | null): Promise<void> {
    await field.fill(text);
    await expect(field).toHaveAccessibleDescription(message ?? '');
  }

  async saveAndWait(): Promise<void> {
    await expect(this.save).toBeEnabled();
    await this.save.click();
    await expect(this.saved).toBeVisible();
  }
}
