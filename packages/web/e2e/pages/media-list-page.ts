import type { Locator, Page } from '@playwright/test';

/** The media list (/admin): the Streams list with its forms and filters. */
export class StreamsList {
  readonly table: Locator;
  readonly filter: Locator;
  readonly matches: Locator;
  readonly noMatches: Locator;
  readonly addForm: Locator;
  readonly backToList: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Streams' });
    this.filter = page.getByLabel('Filter streams');
    this.matches = page.getByLabel('matching streams');
    this.noMatches = page.getByText('No matching streams found', { exact: true });
    this.addForm = page.getByRole('form', { name: 'Add stream' });
    this.backToList = page.getByRole('link', { name: 'back to list' });
  }

  row(name: string): Locator {
    return this.table.getByRole('row', { name, exact: true });
  }

  /** The status cell: label and detail text. */
  status(name: string): Locator {
    return this.row(name).getByRole('cell').nth(1);
  }

  cell(name: string, column: 'clients' | 'bitrate' | 'runtime' | 'source'): Locator {
    const index = { clients: 2, bitrate: 3, runtime: 4, source: 5 }[column];
    return this.row(name).getByRole('cell').nth(index);
  }

  /** A filter toggle by its label; its accessible name ends with its count. */
  toggle(label: string): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^${label}( \\d+)?$`) });
  }

  header(label: string): Locator {
    return this.table.getByRole('columnheader', { name: new RegExp(`^${label}`) });
  }

  /** The names of the rows drawn, top to bottom. */
  async names(): Promise<string[]> {
    const rows = this.table.getByRole('rowgroup').getByRole('row');
    const labels = await rows.evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => ({ top: el.getBoundingClientRect().top, name: el.getAttribute('aria-label') ?? '' })),
    );
    return labels.sort((a, b) => a.top - b.top).map((l) => l.name);
  }

  field(label: 'Name' | 'Source URL'): Locator {
    return this.addForm.getByLabel(label, { exact: true });
  }

  async addStream(name: string, url: string): Promise<void> {
    await this.field('Name').fill(name);
    await this.field('Source URL').fill(url);
    await this.addForm.getByRole('button', { name: 'Create' }).click();
  }
}

/** The Publishing locations list of the media page. */
export class LocationsList {
  readonly table: Locator;
  readonly name: Locator;
  readonly create: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Publishing locations' });
    const form = page.getByRole('form', { name: 'Add location' });
    this.name = form.getByLabel('Location name');
    this.create = form.getByRole('button', { name: 'Create' });
  }

  row(name: string): Locator {
    return this.table.getByRole('row', { name, exact: true });
  }

  deleteButton(name: string): Locator {
    return this.row(name).getByRole('button', { name: `Delete ${name}` });
  }
}

/** The play modal. */
export class PlayModal {
  readonly dialog: Locator;
  readonly video: Locator;
  readonly close: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
    this.video = this.dialog.getByLabel('player');
    this.close = this.dialog.getByRole('button', { name: 'Close' });
  }
}
