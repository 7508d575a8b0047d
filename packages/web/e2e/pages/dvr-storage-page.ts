import { expect, type Locator, type Page } from '@playwright/test';

/** The DVR storage page (/admin/dvrs, spec 002 §2): a panel per DVR and the page's buttons. */
export class DvrStoragePage {
  readonly save: Locator;
  readonly reset: Locator;
  readonly addDvr: Locator;
  readonly empty: Locator;

  constructor(readonly page: Page) {
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.reset = page.getByRole('button', { name: 'Reset', exact: true });
    this.addDvr = page.getByRole('button', { name: 'Add DVR', exact: true });
    this.empty = page.getByText('No DVR storages configured.');
  }

  async open(baseUrl: string): Promise<void> {
    await this.page.goto(`${baseUrl}/admin/dvrs`);
    await expect(this.addDvr).toBeVisible();
  }

  panel(name: string): Locator {
    return this.page.getByRole('region', { name: `DVR ${name}`, exact: true });
  }

  /** The summary line that opens and closes the panel: "NAME at ROOT", the RAID 0 marker. */
  summary(name: string): Locator {
    return this.panel(name).getByRole('button', { name: new RegExp(`^${name} at `) });
  }

  field(name: string, label: string): Locator {
    return this.panel(name).getByLabel(label, { exact: true });
  }

  section(name: string, legend: string): Locator {
    return this.panel(name).getByRole('group', { name: legend, exact: true });
  }

  range(name: string, index: number): Locator {
    return this.section(name, 'Schedule').getByRole('group', { name: `range ${index}`, exact: true });
  }

  disk(name: string, disk: string): Locator {
    return this.section(name, 'Disks').getByRole('group', { name: `disk ${disk}`, exact: true });
  }

  /** Renames a disk: the name is applied when the field is left. */
  async renameDisk(name: string, disk: string, to: string): Promise<void> {
    const input = this.disk(name, disk).getByLabel('Disk name', { exact: true });
    await input.fill(to);
    await input.blur();
    await expect(this.disk(name, to)).toBeVisible();
  }
}
