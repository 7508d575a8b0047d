import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

/** The DVR tab of a stream, location or mirror (spec 001 §2 DVR). */
export class DvrTab {
  readonly root: Locator;
  readonly save: Locator;
  readonly reset: Locator;
  readonly saved: Locator;
  readonly cache: Locator;
  readonly timeline: Locator;
  readonly player: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('media-dvr');
    this.save = this.root.getByRole('button', { name: 'Save', exact: true });
    this.reset = this.root.getByRole('button', { name: 'Reset', exact: true });
    this.saved = this.root.getByText('Saved.', { exact: true });
    this.cache = this.root.getByRole('region', { name: 'SSD disk cache' });
    this.timeline = page.getByRole('group', { name: 'DVR timeline' });
    this.player = page.getByLabel('archive player');
  }

  field(label: string): Locator {
    return this.root.getByLabel(label, { exact: true });
  }

  /** Types into a field and leaves it, as an operator does. */
  async type(label: string, text: string): Promise<void> {
    await this.field(label).fill(text);
    await this.field(label).blur();
  }

  async saveAndWait(): Promise<void> {
    await expect(this.save).toBeEnabled();
    await this.save.click();
    await expect(this.saved).toBeVisible();
  }
}

/** The text of one block of the config file (`stream demo`, `live cams`). */
export async function configBlock(path: string, head: string): Promise<string> {
  const text = await readFile(path, 'utf8');
  const start = text.indexOf(`${head} {`);
  if (start < 0) return '';
  const end = text.indexOf('\n}\n', start);
  return text.slice(start, end < 0 ? undefined : end + 2);
}
