import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { RunningServer } from '../../../server/test/harness.js';

/** Upload config's confirmation dialog (Settings tab) and the problem line beside the button. */
export class ConfigUploadDialog {
  readonly dialog: Locator;
  readonly changes: Locator;
  readonly confirm: Locator;
  readonly cancel: Locator;
  readonly problem: Locator;

  constructor(page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Upload config' });
    this.changes = this.dialog.getByRole('list', { name: 'Changes' });
    this.confirm = this.dialog.getByRole('button', { name: 'Confirm' });
    this.cancel = this.dialog.getByRole('button', { name: 'Cancel' });
    this.problem = page.getByRole('alert').filter({ hasText: /is not valid JSON|can't be uploaded/ });
  }
}

/** read_config as Download config saves it (stats and all), to change and upload again. */
export async function exportedConfig(server: RunningServer): Promise<Record<string, any>> {
  return (await (await server.api('/flussonic/api/read_config')).json()) as Record<string, any>;
}

/** Writes `content` as a file in the server's temp folder, for the file chooser. */
export async function uploadFile(server: RunningServer, name: string, content: string): Promise<string> {
  const path = join(server.dir, name);
  await writeFile(path, content);
  return path;
}
