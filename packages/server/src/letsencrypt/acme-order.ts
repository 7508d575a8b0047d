import { readFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type * as AcmeClient from 'acme-client';
import { writeFileDurably } from '../config/durable-write.js';
import type { ChallengeAnswers } from './challenges.js';

/** LetsEncrypt's production directory (acme-client's directory.letsencrypt.production): the default. */
export const LETSENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

let loaded: Promise<typeof AcmeClient> | undefined;

/**
 * acme-client, loaded at its first use rather than at every start: its import (axios and all) was
 * ~170 ms of a ~2.2 s server start in node --cpu-prof, paid by each of the hundreds of servers the
 * tests start (issue 26).
 */
function acmeClient(): Promise<typeof AcmeClient> {
  loaded ??= import('acme-client').then((acme) => {
    // A CA that stops answering must not hold an order (and the one-order-at-a-time lock) forever:
    // each request gives up after 30 s, and status polls are bounded below.
    acme.axios.defaults.timeout = 30_000;
    return acme;
  });
  return loaded;
}

export interface OrderOptions {
  directoryUrl: string;
  /** The ACME account key (PEM), made and saved at the first order (accountKey()). */
  accountKeyPem: string;
  domains: readonly string[];
  challenges: ChallengeAnswers;
}

export interface Issued {
  /** The certificate then its chain, PEM. */
  certPem: string;
  keyPem: string;
}

/**
 * One ACME order through acme-client: account (made or found by its key), order, HTTP-01 answered
 * from `challenges` (served on the HTTP ports), finalize with a fresh ECDSA P-256 key, download.
 * The CA checks the challenge itself; acme-client's own pre-check is skipped because it fetches
 * port 80 of the domain from here, which behind NAT or a port mapping says nothing useful.
 */
export async function orderCertificate(options: OrderOptions): Promise<Issued> {
  const acme = await acmeClient();
  const client = new acme.Client({
    directoryUrl: options.directoryUrl,
    accountKey: options.accountKeyPem,
    // Status polls: from 1 s (a CA that validates at once answers in a second or two) up to 20 s.
    backoffAttempts: 12,
    backoffMin: 1000,
    backoffMax: 20_000,
  });
  // The account of this key if the CA knows it, else a new one. (acme-client's auto() would send an
  // update carrying only the terms flag for a known account, which a strict CA refuses.)
  try {
    await client.createAccount({ onlyReturnExisting: true });
  } catch {
    await client.createAccount({ termsOfServiceAgreed: true });
  }
  const [key, csr] = await acme.crypto.createCsr(
    { commonName: options.domains[0], altNames: [...options.domains] },
    await acme.crypto.createPrivateEcdsaKey('P-256'),
  );
  const certPem = await client.auto({
    csr,
    termsOfServiceAgreed: true,
    challengePriority: ['http-01'],
    skipChallengeVerification: true,
    challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
      if (challenge.type !== 'http-01') throw new Error(`${challenge.type} challenges are not answered here`);
      options.challenges.set(challenge.token, keyAuthorization);
    },
    challengeRemoveFn: async (_authz, challenge) => {
      options.challenges.delete(challenge.token);
    },
  });
  return { certPem, keyPem: key.toString() };
}

/** The account key in `file` (PEM, mode 0600), made on first use. */
export async function accountKey(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const acme = await acmeClient();
  const pem = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
  await writeFileDurably(file, pem);
  return pem;
}

/**
 * Extra CA certificates trusted for the ACME directory only (`SLUICE_ACME_CA_FILE`): a private or
 * test CA such as pebble's. Set on acme-client's own HTTP client, so no other connection of the
 * server trusts it, and the public roots stay trusted.
 */
export async function trustAcmeCa(file: string | undefined): Promise<void> {
  if (!file) return;
  const extra = await readFile(file, 'utf8');
  const acme = await acmeClient();
  acme.axios.defaults.httpsAgent = new Agent({ ca: [...rootCertificates, extra], keepAlive: true });
}

/** acme-client's errors carry the CA's problem detail; a short one-line reason for the console. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n').join(' ').slice(0, 500);
}
