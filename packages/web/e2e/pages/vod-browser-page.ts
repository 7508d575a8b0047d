import { expect, type Locator, type Page } from '@playwright/test';

/** The VOD file browser (spec 002 §2): /admin/vod/{prefix}/tree/{number}. */
export class VodBrowserPage {
  readonly section: Locator;
  readonly table: Locator;
  readonly path: Locator;
  readonly newDirectory: Locator;
  readonly saveDirectory: Locator;
  readonly parent: Locator;
  readonly backToSettings: Locator;
  readonly loadingNotice: Locator;
  readonly uploadForm: Locator;
  readonly filesToUpload: Locator;
  readonly uploadButton: Locator;
  readonly player: Locator;
  readonly outputLinks: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole('region', { name: 'VOD browser' });
    this.table = this.section.getByRole('table', { name: 'files' });
    this.path = this.section.getByRole('textbox', { name: 'Path' });
    this.newDirectory = this.section.getByRole('textbox', { name: 'New directory' });
    this.saveDirectory = this.section.getByRole('button', { name: 'Save' });
    this.parent = this.section.getByRole('link', { name: 'parent directory' });
    this.backToSettings = this.section.getByRole('link', { name: 'back to VOD settings' });
    this.loadingNotice = this.section.getByText('Loading file list from server, please wait.');
    this.uploadForm = this.section.getByRole('form', { name: 'upload' });
    this.filesToUpload = this.uploadForm.getByLabel('Files to upload');
    this.uploadButton = this.uploadForm.getByRole('button', { name: 'Upload', exact: true });
    this.player = this.section.getByRole('region', { name: /^video / }).getByLabel('player');
    this.outputLinks = this.section.getByLabel('output links');
  }

  async open(baseUrl: string, prefix: string, number = 0, subpath = ''): Promise<void> {
    const query = subpath ? `?${new URLSearchParams({ subpath })}` : '';
    await this.page.goto(`${baseUrl}/admin/vod/${encodeURIComponent(prefix)}/tree/${number}${query}`);
  }

  /** The entries' names in the order shown (directories carry a trailing '/'), without the parent link. */
  names(): Locator {
    return this.table
      .getByRole('row')
      .filter({ hasNot: this.page.getByRole('link', { name: 'parent directory' }) })
      .locator('td:first-child');
  }

  async expectNames(names: string[]): Promise<void> {
    await expect(this.names()).toHaveText(names);
  }

  entry(name: string): Locator {
    return this.table
      .getByRole('row')
      .filter({ has: this.page.getByRole('button', { name: `remove ${name}` }) });
  }

  /** A video's name is a button that opens or closes the player; a directory's is a link. */
  video(name: string): Locator {
    return this.table.getByRole('button', { name, exact: true });
  }

  directory(name: string): Locator {
    return this.table.getByRole('link', { name: `${name}/`, exact: true });
  }

  async remove(name: string): Promise<void> {
    await this.table.getByRole('button', { name: `remove ${name}` }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Remove file' });
    await expect(dialog).toContainText(`Really remove ${name}?`);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(dialog).toBeHidden();
  }

  progress(fileName: string): Locator {
    return this.uploadForm.getByRole('progressbar', { name: `upload ${fileName}` });
  }

  outputLink(label: string): Locator {
    return this.outputLinks.getByRole('link', { name: `${label} link` });
  }
}
