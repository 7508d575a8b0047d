import type { Locator, Page } from '@playwright/test';

/** Settings › TLS-tunneled › Certificate: the certificate in use and LetsEncrypt issuing. */
export class CertificateBlock {
  readonly status: Locator;
  readonly selfSigned: Locator;
  readonly domains: Locator;
  readonly issue: Locator;
  readonly alert: Locator;
  readonly obtained: Locator;

  constructor(readonly page: Page) {
    this.status = page.getByRole('table', { name: 'Certificate status' });
    this.selfSigned = page.getByText('Self-signed', { exact: true });
    this.domains = page.getByLabel('Domains', { exact: true });
    this.issue = page.getByRole('button', { name: 'Get certificate from LetsEncrypt' });
    this.alert = page.getByRole('alert');
    this.obtained = page.getByText('Certificate obtained. Reloading the page…');
  }

  /** The value of one row of the status table: Subject, Issuer, Domains, Expires, File. */
  row(label: string): Locator {
    return this.status.getByRole('row', { name: label }).getByRole('cell');
  }
}
