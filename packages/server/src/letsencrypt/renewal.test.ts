import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CertificateInfo } from '../tls/certificate-store.js';
import { LetsEncrypt, ORDER_DEADLINE_MS, OrderInProgress } from './letsencrypt.js';
import { nextCheckInMs } from './renewal.js';

const DAY_MS = 86_400_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');

/** A certificate store that keeps what it is given; the order hands it the info to "install". */
function harness() {
  let current: CertificateInfo = info('CN=host', 'CN=host', T0 + 3650 * DAY_MS);
  const ordered: string[][] = [];
  const failWith: string[] = [];
  let nowMs = T0;
  const certificates = {
    info: () => current,
    install: async (certPem: string) => (current = JSON.parse(certPem) as CertificateInfo),
  };
  const make = async (dir: string) =>
    LetsEncrypt.open({
      certificates,
      dir,
      directoryUrl: () => 'https://acme.test/dir',
      log: { notice: () => undefined, error: () => undefined },
      now: () => nowMs,
      order: async (domains) => {
        ordered.push(domains);
        const reason = failWith.shift();
        if (reason) throw new Error(reason);
        // A 90-day certificate from the CA, issued "now".
        return { certPem: JSON.stringify(info('CN=a', 'CN=Test CA', nowMs + 90 * DAY_MS)), keyPem: '' };
      },
    });
  return {
    make,
    ordered,
    failWith,
    setNow: (ms: number) => (nowMs = ms),
    replaceByHand: () => (current = info('CN=a', 'CN=Other CA', T0 + 20 * DAY_MS)),
    current: () => current,
  };
}

function info(subject: string, issuer: string, notAfterMs: number): CertificateInfo {
  return {
    subject,
    issuer,
    domains: ['a.example.com'],
    not_before: new Date(notAfterMs - 90 * DAY_MS).toISOString(),
    not_after: new Date(notAfterMs).toISOString(),
    self_signed: subject === issuer,
    file: '/x/server.crt',
  };
}

describe('LetsEncrypt renewal: 30 days before expiry, retried with backoff, a notice on failure', () => {
  let dir: string | undefined;
  afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

  it('renews only a certificate it issued, from 30 days before it expires, and keeps the names across a restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-le-'));
    const h = harness();
    await (await h.make(dir)).issue(['a.example.com', 'www.a.example.com']);
    const issuedUntil = Date.parse(h.current().not_after);
    // A restart: the names come back from letsencrypt.json.
    const le = await h.make(dir);
    h.setNow(issuedUntil - 31 * DAY_MS);
    await le.checkRenewal();
    expect(h.ordered).toHaveLength(1);
    h.setNow(issuedUntil - 29 * DAY_MS);
    await le.checkRenewal();
    expect(h.ordered).toEqual([
      ['a.example.com', 'www.a.example.com'],
      ['a.example.com', 'www.a.example.com'],
    ]);
    expect(Date.parse(h.current().not_after)).toBeGreaterThan(issuedUntil);
    // Replaced by hand: no longer LetsEncrypt's to renew, however close its expiry.
    h.replaceByHand();
    h.setNow(T0 + 19 * DAY_MS);
    await le.checkRenewal();
    expect(h.ordered).toHaveLength(2);
  });

  it('says why renewal fails in a header notice, backs off, and clears it once renewed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-le-'));
    const h = harness();
    const le = await h.make(dir);
    await le.issue(['a.example.com']);
    h.setNow(Date.parse(h.current().not_after) - 10 * DAY_MS);
    h.failWith.push('connect ECONNREFUSED', 'rateLimited: too many certificates');
    await le.checkRenewal();
    expect(le.notices().error_letsencrypt).toMatch(
      /could not renew the certificate for a\.example\.com .*ECONNREFUSED; next try in 60 min/,
    );
    await le.checkRenewal();
    expect(le.notices().error_letsencrypt).toMatch(/rateLimited.*next try in 120 min/);
    await le.checkRenewal();
    expect(le.notices()).toEqual({});
  });

  it('gives up on a CA that never answers after 3 min, keeping the certificate and freeing the lock', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-le-'));
    vi.useFakeTimers();
    try {
      let calls = 0;
      const le = await LetsEncrypt.open({
        certificates: { info: () => info('CN=host', 'CN=host', T0), install: async () => info('x', 'y', T0) },
        dir,
        directoryUrl: () => 'https://acme.test/dir',
        log: { notice: () => undefined, error: () => undefined },
        order: () => {
          calls++;
          return new Promise(() => undefined);
        },
      });
      const first = le.issue(['a.example.com']);
      const refusal = expect(first).rejects.toThrow(
        /no certificate from https:\/\/acme\.test\/dir within 180 s/,
      );
      expect(() => le.issue(['a.example.com'])).toThrow(OrderInProgress);
      await vi.advanceTimersByTimeAsync(ORDER_DEADLINE_MS);
      await refusal;
      void le.issue(['a.example.com']).catch(() => undefined);
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries after 1 h, 2 h, 4 h … and at most waits the daily check', () => {
    expect([0, 1, 2, 3, 10].map(nextCheckInMs)).toEqual([DAY_MS, 3_600_000, 7_200_000, 14_400_000, DAY_MS]);
  });
});
