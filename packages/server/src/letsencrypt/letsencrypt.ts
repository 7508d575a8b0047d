import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileDurably } from '../config/durable-write.js';
import { type CertificateInfo, type CertificateStore, KEY_FILE } from '../tls/certificate-store.js';
import { type Issued, accountKey, orderCertificate, reasonOf } from './acme-order.js';
import { ChallengeAnswers } from './challenges.js';
import { checkDomains } from './domains.js';
import { nextCheckInMs, renewalDue } from './renewal.js';

/** GET and POST /letsencrypt answer this: the certificate in use and where its files are. */
export interface LetsEncryptStatus {
  cert: CertificateInfo;
  files: { cert: string; key: string };
}

/** The CA refused or could not be reached: answered 502, the old certificate stays in use. */
export class OrderFailed extends Error {}
/** Another order is running: answered 409. */
export class OrderInProgress extends Error {}

/** What was issued here: renewed while it is the certificate in use (not replaced by hand). */
interface Remembered {
  domains: string[];
  directory: string;
  issuer: string;
  not_after: string;
}

export const STATE_FILE = 'letsencrypt.json';
export const ACCOUNT_KEY_FILE = 'letsencrypt-account.key';
const NOTICE_KEY = 'error_letsencrypt';
/** The first renewal check after a start: soon, so a server restarted daily still checks. */
const FIRST_CHECK_MS = 60_000;
/**
 * An order not done by then fails (and frees the one-order lock): a directory whose address
 * resolves nowhere or drops packets hangs below acme-client's request timeout. A real order takes
 * seconds; LetsEncrypt's validation of a slow site well under a minute.
 */
export const ORDER_DEADLINE_MS = 180_000;

export type OrderFn = (domains: string[], directoryUrl: string) => Promise<Issued>;

export interface LetsEncryptOptions {
  certificates: Pick<CertificateStore, 'info' | 'install'>;
  /** The folder of the certificate (tlsDirOf(configPath)): the account key and state live there too. */
  dir: string;
  /** `letsencrypt_directory` from the config, or LetsEncrypt's production directory. */
  directoryUrl: () => string;
  log: { notice(line: string): void; error(line: string): void };
  /** The ACME order; the unit test of renewal hands in its own CA. */
  order?: OrderFn;
  now?: () => number;
}

/**
 * LetsEncrypt (any ACME CA): orders a certificate for the names asked, installs it through the
 * CertificateStore (every TLS port switches at its next handshake; a refused one leaves the old
 * in use), remembers the names and renews it 30 days before it expires (renewal.ts). One order at
 * a time: a second POST while one runs is refused, and a due renewal waits for the next check.
 */
export class LetsEncrypt {
  readonly challenges = new ChallengeAnswers();
  private running: Promise<LetsEncryptStatus> | undefined;
  private failures = 0;
  private lastFailure: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly order: OrderFn;
  private readonly now: () => number;

  private constructor(
    private readonly options: LetsEncryptOptions,
    private remembered: Remembered | undefined,
  ) {
    this.now = options.now ?? Date.now;
    this.order =
      options.order ??
      (async (domains, directoryUrl) =>
        orderCertificate({
          directoryUrl,
          accountKeyPem: await accountKey(join(options.dir, ACCOUNT_KEY_FILE)),
          domains,
          challenges: this.challenges,
        }));
  }

  static async open(options: LetsEncryptOptions): Promise<LetsEncrypt> {
    let remembered: Remembered | undefined;
    try {
      remembered = JSON.parse(await readFile(join(options.dir, STATE_FILE), 'utf8')) as Remembered;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        options.log.error(`${join(options.dir, STATE_FILE)}: ${(error as Error).message}; renewal is off`);
    }
    return new LetsEncrypt(options, remembered);
  }

  status(): LetsEncryptStatus {
    const cert = this.options.certificates.info();
    return { cert, files: { cert: cert.file, key: join(dirname(cert.file), KEY_FILE) } };
  }

  /** Orders and installs a certificate for `domains` (checked by checkDomains: BadDomains). */
  issue(domains: unknown): Promise<LetsEncryptStatus> {
    const names = checkDomains(domains);
    if (this.running) throw new OrderInProgress('a certificate order is in progress: wait for it to end');
    this.running = this.run(names).finally(() => (this.running = undefined));
    return this.running;
  }

  /** A header notice while renewal fails (server stats `status` error_* keys). */
  notices(): Record<string, string> {
    const r = this.remembered;
    if (this.failures === 0 || !r || !this.lastFailure) return {};
    const minutes = Math.round(nextCheckInMs(this.failures) / 60_000);
    return {
      [NOTICE_KEY]: `LetsEncrypt could not renew the certificate for ${r.domains.join(', ')} (it expires ${r.not_after}): ${this.lastFailure}; next try in ${minutes} min`,
    };
  }

  /** Checks for a due renewal a minute from now, then daily (sooner after a failure). */
  startRenewal(): void {
    this.schedule(FIRST_CHECK_MS);
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One renewal check (the timer calls this). */
  async checkRenewal(): Promise<void> {
    const r = this.remembered;
    const cert = this.options.certificates.info();
    // Replaced by hand (or by another tool) since: not ours to renew any more.
    const ours = r !== undefined && cert.issuer === r.issuer && cert.not_after === r.not_after;
    if (!ours || !renewalDue(cert.not_after, this.now()) || this.running) return;
    this.options.log.notice(`LetsEncrypt: renewing the certificate for ${r.domains.join(', ')}`);
    try {
      this.running = this.run(r.domains, r.directory);
      await this.running;
    } catch (error) {
      this.failures++;
      this.lastFailure = (error as Error).message;
    } finally {
      this.running = undefined;
    }
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.checkRenewal().finally(() => this.schedule(nextCheckInMs(this.failures)));
    }, delayMs);
    this.timer.unref();
  }

  private async run(domains: string[], directory = this.options.directoryUrl()): Promise<LetsEncryptStatus> {
    const list = domains.join(', ');
    let issued: Issued;
    try {
      issued = await withDeadline(this.order(domains, directory), ORDER_DEADLINE_MS, directory);
    } catch (error) {
      const reason = reasonOf(error);
      this.options.log.error(`LetsEncrypt: no certificate for ${list} from ${directory}: ${reason}`);
      throw new OrderFailed(reason);
    }
    let info: CertificateInfo;
    try {
      info = await this.options.certificates.install(issued.certPem, issued.keyPem);
    } catch (error) {
      const reason = `the issued certificate was refused: ${(error as Error).message}`;
      this.options.log.error(`LetsEncrypt: ${list}: ${reason}`);
      throw new OrderFailed(reason);
    }
    this.remembered = { domains, directory, issuer: info.issuer, not_after: info.not_after };
    this.failures = 0;
    this.lastFailure = undefined;
    await writeFileDurably(join(this.options.dir, STATE_FILE), `${JSON.stringify(this.remembered)}\n`);
    this.options.log.notice(`LetsEncrypt: certificate for ${list} installed, valid until ${info.not_after}`);
    return this.status();
  }
}

/** `promise`, or a rejection once `ms` pass; a late result is dropped (nothing is installed). */
function withDeadline<T>(promise: Promise<T>, ms: number, directory: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no certificate from ${directory} within ${ms / 1000} s`)), ms);
  });
  promise.catch(() => undefined); // a late failure after the deadline is not unhandled
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
