import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

/** A stream's page (/admin/standalone/{name}) and its tabs. */
export class StreamPage {
  readonly save: Locator;
  readonly saved: Locator;
  readonly tabs: Locator;
  readonly video: Locator;

  constructor(readonly page: Page) {
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.saved = page.getByText('Saved.', { exact: true });
    this.tabs = page.getByRole('navigation', { name: 'stream tabs' });
    this.video = page.getByLabel('player');
  }

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  tab(label: string): Locator {
    return this.tabs.getByRole('link', { name: label, exact: true });
  }

  async saveAndWait(): Promise<void> {
    await expect(this.save).toBeEnabled();
    await this.save.click();
    await expect(this.saved).toBeVisible();
  }
}

/** Waits until the config file on disk satisfies `check`. */
export async function expectConfigFile(path: string, check: (text: string) => boolean): Promise<void> {
  await expect.poll(async () => check(await readFile(path, 'utf8'))).toBe(true);
}

/** Waits until a video element plays: frames decoded and its position moving on. */
export async function expectPlaying(video: Locator): Promise<void> {
  // Chromium pauses a muted autoplaying video while it is out of view.
  await video.scrollIntoViewIfNeeded();
  const start = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(start + 1);
}
