import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CERT_FILE, CertificateError, CertificateStore, KEY_FILE } from './certificate-store.js';
import { makeSelfSigned } from './self-signed.js';

const YEAR_MS = 365 * 86_400_000;

describe('the TLS certificate beside the config', () => {
  let dir: string;
  let store: CertificateStore | undefined;
  const lines: string[] = [];
  const log = { notice: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
  const open = () => CertificateStore.open({ dir, hostname: 'media.example', log, settleMs: 50 });
  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'sluice-tls-')), 'tls');
    lines.length = 0;
  });
  afterEach(async () => {
    store?.close();
    await rm(join(dir, '..'), { recursive: true, force: true });
  });

  it('makes and saves a self-signed certificate at first start, private to the server user', async () => {
    store = await open();
    const info = store.info();
    expect(info).toMatchObject({
      subject: 'CN=media.example',
      self_signed: true,
      file: join(dir, CERT_FILE),
    });
    expect(info.domains).toEqual(expect.arrayContaining(['localhost', 'media.example', '127.0.0.1']));
    expect(new Date(info.not_after).getTime()).toBeGreaterThan(Date.now() + YEAR_MS);
    // Node's own X.509 reader accepts it: signed by its key, valid for the names a browser checks.
    const cert = new X509Certificate(await readFile(join(dir, CERT_FILE)));
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect((await stat(join(dir, KEY_FILE))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, CERT_FILE))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    // The next start uses the saved one rather than making another.
    const first = store.pem().cert;
    store.close();
    store = await open();
    expect(store.pem().cert).toBe(first);
  });

  it('makes certificates that always parse (random serials are valid DER)', () => {
    for (let i = 0; i < 1500; i++) {
      const made = makeSelfSigned('many.example');
      expect(new X509Certificate(made.certPem).checkPrivateKey(createPrivateKey(made.keyPem))).toBe(true);
    }
  });

  it('switches to a replaced pair without a restart and refuses a mismatched one, keeping the previous', async () => {
    store = await open();
    const changes = vi.fn();
    store.onChange(changes);
    const next = makeSelfSigned('next.example');
    await writeFile(join(dir, KEY_FILE), next.keyPem);
    await writeFile(join(dir, CERT_FILE), next.certPem);
    await vi.waitFor(() => expect(store?.info().subject).toBe('CN=next.example'), { timeout: 10_000 });
    expect(changes).toHaveBeenCalled();
    expect(store.notices()).toEqual({});

    // A certificate whose key is another one's: refused, named, shown as a notice; the old one stays.
    await writeFile(join(dir, CERT_FILE), makeSelfSigned('wrong.example').certPem);
    await vi.waitFor(() => expect(Object.keys(store?.notices() ?? {})).toEqual(['error_certificate']), {
      timeout: 10_000,
    });
    expect(store.notices().error_certificate).toContain('the private key does not match the certificate');
    expect(lines.join('\n')).toContain('TLS certificate refused');
    expect(store.info().subject).toBe('CN=next.example');

    // Put right again: the notice goes.
    await writeFile(join(dir, CERT_FILE), next.certPem);
    await vi.waitFor(() => expect(store?.notices()).toEqual({}), { timeout: 10_000 });
  });

  it('install() checks the pair before writing it and names what is wrong', async () => {
    store = await open();
    const before = store.pem();
    const good = makeSelfSigned('installed.example');
    const other = makeSelfSigned('other.example');
    const expired = makeSelfSigned('old.example', new Date(Date.now() - 20 * YEAR_MS));
    await expect(store.install(good.certPem, other.keyPem)).rejects.toThrow(
      new CertificateError('the private key does not match the certificate'),
    );
    await expect(store.install(expired.certPem, expired.keyPem)).rejects.toThrow(/expired on/);
    await expect(store.install('not a certificate', good.keyPem)).rejects.toThrow(
      /certificate can't be read/,
    );
    await expect(store.install(good.certPem, 'no key')).rejects.toThrow(/private key can't be read/);
    expect(store.pem()).toEqual(before);
    expect(await readFile(join(dir, CERT_FILE), 'utf8')).toBe(before.cert);

    const info = await store.install(good.certPem, good.keyPem);
    expect(info.subject).toBe('CN=installed.example');
    expect(await readFile(join(dir, CERT_FILE), 'utf8')).toBe(good.certPem);
    expect(await readFile(join(dir, KEY_FILE), 'utf8')).toBe(good.keyPem);
    expect((await stat(join(dir, KEY_FILE))).mode & 0o777).toBe(0o600);
  });

  it('starts with a stand-in and a notice when the files on disk are broken, leaving them untouched', async () => {
    store = await open();
    store.close();
    await writeFile(join(dir, CERT_FILE), 'garbage');
    store = await open();
    expect(store.notices().error_certificate).toMatch(/can't be read.*temporary self-signed/);
    expect(store.info().self_signed).toBe(true);
    expect(await readFile(join(dir, CERT_FILE), 'utf8')).toBe('garbage');
  });
});
