import { X509Certificate, createPrivateKey } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type SecureContext, createSecureContext } from 'node:tls';
import { writeFileDurably } from '../config/durable-write.js';
import { makeSelfSigned } from './self-signed.js';

/**
 * The server's one TLS certificate, kept beside the config in `<config dir>/tls/server.crt` (PEM,
 * the certificate then any chain) and `<config dir>/tls/server.key` (PEM private key), both mode
 * 0600 in a 0700 folder. Every TLS listener (HTTPS, RTMPS, RTSPS) takes its context from here, so
 * one replacement reaches all of them on their next handshake, with no restart.
 *
 * - No files at first start: a self-signed pair is made, saved there, and info().self_signed says so.
 * - The files replaced on disk (by hand, certbot, a deploy): picked up by a folder watch. A broken or
 *   mismatched pair is refused with a log line and a header notice; the previous one stays in use.
 * - install() (LetsEncrypt, an upload): checked first, written atomically, then switched to.
 */
export interface CertificateInfo {
  subject: string;
  issuer: string;
  domains: string[];
  not_before: string;
  not_after: string /* ISO */;
  self_signed: boolean;
  file: string /* cert path */;
}

/** The message names the problem, for a 400 answer or a notice. */
export class CertificateError extends Error {}

export const CERT_FILE = 'server.crt';
export const KEY_FILE = 'server.key';

/** `<config dir>/tls`: where the certificate and key live. */
export function tlsDirOf(configPath: string): string {
  return join(dirname(configPath), 'tls');
}

export interface CertificateStoreOptions {
  /** Folder holding server.crt and server.key (tlsDirOf(configPath)). */
  dir: string;
  /** The CN and a subjectAltName of the self-signed certificate made when there is none. */
  hostname: string;
  log: { notice(line: string): void; error(line: string): void };
  /** How long the folder must be quiet after a change before the files are read (a copy in progress). */
  settleMs?: number;
}

interface Loaded {
  certPem: string;
  keyPem: string;
  context: SecureContext;
  info: CertificateInfo;
}

const NOTICE_KEY = 'error_certificate';
const RECHECK_MS = 60_000;

export class CertificateStore {
  private current: Loaded;
  private readonly listeners = new Set<() => void>();
  private watcher: FSWatcher | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private recheckTimer: NodeJS.Timeout | undefined;
  private refusal: string | undefined;
  private reloading = Promise.resolve();

  private constructor(
    private readonly options: CertificateStoreOptions,
    initial: Loaded,
  ) {
    this.current = initial;
  }

  /** Reads the pair (or makes and saves a self-signed one) and starts watching the folder. */
  static async open(options: CertificateStoreOptions): Promise<CertificateStore> {
    await mkdir(options.dir, { recursive: true, mode: 0o700 });
    const certFile = join(options.dir, CERT_FILE);
    const files = await readPair(options.dir);
    let initial: Loaded;
    let refusal: string | undefined;
    if (files === undefined) {
      const made = makeSelfSigned(options.hostname);
      initial = checkPair(made.certPem, made.keyPem, certFile);
      await writePair(options.dir, made.certPem, made.keyPem);
      options.log.notice(`no TLS certificate: made a self-signed one for ${options.hostname} in ${certFile}`);
    } else {
      try {
        initial = checkPair(files.certPem, files.keyPem, certFile);
      } catch (error) {
        // The operator's files are left as they are; TLS ports still open, with a stand-in.
        refusal = `${certFile}: ${(error as Error).message}; a temporary self-signed certificate is used`;
        const made = makeSelfSigned(options.hostname);
        initial = checkPair(made.certPem, made.keyPem, certFile);
        options.log.error(refusal);
      }
      await warnIfReadable(options);
    }
    const store = new CertificateStore(options, initial);
    store.refusal = refusal;
    store.watch();
    return store;
  }

  /** The context every TLS listener uses right now. */
  secureContext(): SecureContext {
    return this.current.context;
  }

  /** The PEM pair in use, for servers whose default context is set from options (setSecureContext). */
  pem(): { cert: string; key: string } {
    return { cert: this.current.certPem, key: this.current.keyPem };
  }

  /** Called after the certificate changed (hot reload: file replaced, or install()). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  info(): CertificateInfo {
    return this.current.info;
  }

  /** A header notice while files on disk were refused (stats `status` error_* keys). */
  notices(): Record<string, string> {
    return this.refusal ? { [NOTICE_KEY]: this.refusal } : {};
  }

  /**
   * Checks the pair (parses, key matches cert, not expired), writes both files atomically with mode
   * 0600 beside the config, switches every listener to it; throws CertificateError and keeps the
   * previous one in use otherwise.
   */
  async install(certPem: string, keyPem: string): Promise<CertificateInfo> {
    const loaded = checkPair(certPem, keyPem, join(this.options.dir, CERT_FILE));
    await writePair(this.options.dir, certPem, keyPem);
    this.use(loaded);
    this.options.log.notice(`TLS certificate installed: ${describe(loaded.info)}`);
    return loaded.info;
  }

  /** Reads the files again now (the folder watch calls this once they have settled). */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.readFiles());
    return this.reloading;
  }

  close(): void {
    this.watcher?.close();
    clearTimeout(this.settleTimer);
    clearInterval(this.recheckTimer);
  }

  private async readFiles(): Promise<void> {
    const certFile = join(this.options.dir, CERT_FILE);
    let files;
    try {
      files = await readPair(this.options.dir);
    } catch (error) {
      this.refusal = `${certFile}: ${(error as Error).message}; the previous certificate stays in use`;
      this.options.log.error(`TLS certificate refused: ${this.refusal}`);
      return;
    }
    if (files === undefined) return; // removed: keep serving the one in memory
    if (files.certPem === this.current.certPem && files.keyPem === this.current.keyPem) {
      this.refusal = undefined;
      return;
    }
    try {
      const loaded = checkPair(files.certPem, files.keyPem, certFile);
      this.use(loaded);
      this.options.log.notice(`TLS certificate reloaded from ${certFile}: ${describe(loaded.info)}`);
    } catch (error) {
      const message = `${certFile}: ${(error as Error).message}; the previous certificate stays in use`;
      if (message !== this.refusal) this.options.log.error(`TLS certificate refused: ${message}`);
      this.refusal = message;
    }
  }

  private use(loaded: Loaded): void {
    this.current = loaded;
    this.refusal = undefined;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.options.log.error(`TLS certificate change: ${(error as Error).message}`);
      }
    }
  }

  private watch(): void {
    // Also read again now and then: a folder watch misses a symlinked file whose target changes
    // (certbot's live/ links) and events lost on some filesystems. Two small reads; same files, no-op.
    this.recheckTimer = setInterval(() => void this.reload(), RECHECK_MS);
    this.recheckTimer.unref();
    try {
      this.watcher = watch(this.options.dir, { persistent: false }, (_event, name) => {
        if (name !== null && name !== CERT_FILE && name !== KEY_FILE) return; // our own temp files
        clearTimeout(this.settleTimer);
        this.settleTimer = setTimeout(() => void this.reload(), this.options.settleMs ?? 300);
      });
      this.watcher.on('error', (error) =>
        this.options.log.error(`TLS certificate folder watch: ${error.message}`),
      );
    } catch (error) {
      this.options.log.error(`can't watch ${this.options.dir}: ${(error as Error).message}`);
    }
  }
}

/** Parses and checks a pair; throws CertificateError naming what is wrong. */
export function checkPair(certPem: string, keyPem: string, file: string, now = new Date()): Loaded {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch (error) {
    throw new CertificateError(`the certificate can't be read: ${(error as Error).message}`);
  }
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch (error) {
    throw new CertificateError(`the private key can't be read: ${(error as Error).message}`);
  }
  if (!cert.checkPrivateKey(key))
    throw new CertificateError('the private key does not match the certificate');
  const notAfter = new Date(cert.validTo);
  if (notAfter.getTime() <= now.getTime())
    throw new CertificateError(`the certificate expired on ${notAfter.toISOString()}`);
  let context: SecureContext;
  try {
    context = createSecureContext({ cert: certPem, key: keyPem, minVersion: 'TLSv1.2' });
  } catch (error) {
    throw new CertificateError(`the pair can't be used for TLS: ${(error as Error).message}`);
  }
  const selfSigned = cert.subject === cert.issuer && cert.verify(cert.publicKey);
  const info: CertificateInfo = {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    domains: domainsOf(cert),
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: notAfter.toISOString(),
    self_signed: selfSigned,
    file,
  };
  return { certPem, keyPem, context, info };
}

/** The subjectAltName DNS names and addresses, or the CN when there are none. */
function domainsOf(cert: X509Certificate): string[] {
  const alt = (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .map((entry) => /^(?:DNS|IP Address):(.+)$/.exec(entry)?.[1])
    .filter((v): v is string => v !== undefined);
  if (alt.length > 0) return alt;
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  return cn ? [cn] : [];
}

const oneLine = (dn: string) => dn.split('\n').join(', ');
const describe = (info: CertificateInfo) =>
  `${info.subject}, issued by ${info.issuer}, valid until ${info.not_after}`;

async function readPair(dir: string): Promise<{ certPem: string; keyPem: string } | undefined> {
  try {
    const [certPem, keyPem] = await Promise.all([
      readFile(join(dir, CERT_FILE), 'utf8'),
      readFile(join(dir, KEY_FILE), 'utf8'),
    ]);
    return { certPem, keyPem };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The key first: a watcher that sees the new cert beside the old key refuses it and waits. */
async function writePair(dir: string, certPem: string, keyPem: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileDurably(join(dir, KEY_FILE), keyPem);
  await writeFileDurably(join(dir, CERT_FILE), certPem);
}

async function warnIfReadable(options: CertificateStoreOptions): Promise<void> {
  const keyFile = join(options.dir, KEY_FILE);
  const mode = (await stat(keyFile)).mode;
  if ((mode & 0o077) !== 0)
    options.log.notice(
      `${keyFile} can be read by other users (mode ${(mode & 0o777).toString(8)}): chmod 600 it`,
    );
}
