import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIPv4 } from 'node:net';

/**
 * A self-signed certificate made with node:crypto alone (ECDSA P-256, SHA-256). Node can sign but
 * has no API that builds an X.509 certificate, so the few DER structures a certificate needs are
 * written here by hand (about 60 lines) rather than pulling in a package or depending on an
 * `openssl` binary being installed where the server runs: the first start must work everywhere.
 * Verified in the unit test by node:crypto's own X509Certificate (parse, checkPrivateKey, verify).
 */
export interface SelfSigned {
  certPem: string;
  keyPem: string;
}

const VALID_DAYS = 3650;

export function makeSelfSigned(hostname: string, now = new Date()): SelfSigned {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  // Browsers and clients match the host against the subjectAltName, not the CN.
  // A dNSName is ASCII letters, digits, dots and dashes: a configured `hostname` that is not one stays CN only.
  const names = [...new Set(['localhost', hostname].filter((n) => /^[A-Za-z0-9.-]+$/.test(n) && !isIPv4(n)))];
  const addresses = [...new Set(['127.0.0.1', ...(isIPv4(hostname) ? [hostname] : [])])];
  const san = seq(
    ...names.map((n) => tlv(0x82, Buffer.from(n, 'ascii'))),
    ...addresses.map((a) => tlv(0x87, Buffer.from(a.split('.').map(Number)))),
  );
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(hostname || 'localhost', 'utf8')))));
  const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'));
  // A positive serial in minimal DER: 16 random bytes, the first one 0x40-0x7f (top bit clear, and
  // never 0x00, which DER forbids before a byte under 0x80: OpenSSL refused 1 certificate in 128).
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40;
  const notAfter = new Date(now.getTime() + VALID_DAYS * 86_400_000);
  // A minute back, so a client whose clock is a little behind accepts it at once.
  const notBefore = new Date(now.getTime() - 60_000);
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version v3
    tlv(0x02, serial),
    ecdsaSha256,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    tlv(
      0xa3,
      seq(
        seq(oid('2.5.29.19'), tlv(0x04, seq())), // basicConstraints: not a CA
        seq(oid('2.5.29.17'), tlv(0x04, san)),
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = seq(tbs, ecdsaSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function tlv(tag: number, value: Buffer): Buffer {
  const n = value.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else if (n < 0x100) length = Buffer.from([0x81, n]);
  else length = Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, value]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [a * 40 + b];
  for (const part of rest) {
    const groups = [part & 0x7f];
    for (let v = part >>> 7; v > 0; v >>>= 7) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime up to 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}
