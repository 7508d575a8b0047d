import type { Locator, Page } from '@playwright/test';

/** The Origin servers section of the media page: the add form and each mirror with its streams. */
export class OriginServers {
  readonly table: Locator;
  readonly form: Locator;
  readonly url: Locator;
  readonly clusterKey: Locator;
  readonly create: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Origin servers' });
    this.form = page.getByRole('form', { name: 'Add mirror' });
    this.url = this.form.getByLabel('Mirrored server url');
    this.clusterKey = this.form.getByLabel('Cluster key');
    this.create = this.form.getByRole('button', { name: 'Create' });
  }

  /** A mirror's group: its head row and its stream rows; `label` is its urls joined by ', '. */
  mirror(label: string): Locator {
    return this.table.getByRole('rowgroup', { name: `mirror ${label}`, exact: true });
  }

  head(label: string): Locator {
    return this.mirror(label).getByRole('row', { name: label, exact: true });
  }

  /** The health line of one of the mirror's urls: a dot, the url, "online" or "error: …". */
  server(label: string, url: string): Locator {
    return this.head(label).getByRole('listitem', { name: url, exact: true });
  }

  stream(label: string, name: string): Locator {
    return this.mirror(label).getByRole('row', { name, exact: true });
  }

  mode(label: string, mode: 'static' | 'on demand'): Locator {
    return this.head(label).getByRole('radio', { name: mode, exact: true });
  }

  async add(url: string, clusterKey = ''): Promise<void> {
    await this.url.fill(url);
    await this.clusterKey.fill(clusterKey);
    await this.create.click();
  }
}
