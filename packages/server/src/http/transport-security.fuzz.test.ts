import fc from 'fast-check';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PortRoles } from './port-roles.js';
import { hostName, httpsRedirectTarget } from './transport-security.js';

const CASES = 10_000;
const config = { https_redirect: true as const };
/** Paths built from the pieces the rules look at, plus junk, so both branches are reached often. */
const path = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '/',
        '/admin',
        '/admin/',
        '/flussonic/api/',
        'cluster/',
        'letsencrypt',
        'metrics',
        '?',
        '//',
      ),
      fc.constantFrom('..', '%2e', '%00', '\\', '@', 'evil.example', ':443', '#', ' '),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));
const host = fc.oneof(
  fc.constantFrom(
    'example.com',
    'example.com:8080',
    '[::1]:80',
    '127.0.0.1',
    'a@b',
    'x/y',
    'h\r\nSet-Cookie: a=b',
  ),
  fc.string({ maxLength: 40 }),
);

/**
 * Issue 19: the Host header and the request target (both from the network) decide the HTTP→HTTPS
 * redirect and which port role answers. No input may throw, and a redirect never leaves the host
 * the request named (no open redirect, no header injection).
 */
describe('transport security and port roles on arbitrary requests', () => {
  it('redirects only to https://<the plain host name>[:port]/<the same path>, never throws', () => {
    fc.assert(
      fc.property(
        path,
        fc.option(host, { nil: undefined }),
        fc.integer({ min: 1, max: 65535 }),
        (url, h, port) => {
          const target = httpsRedirectTarget(config, port, { url, headers: { host: h }, socket: {} });
          if (target === undefined) return;
          const name = hostName(h)!;
          expect(name).toMatch(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/);
          const authority = `https://${name}${port === 443 ? '' : `:${port}`}`;
          expect(target.startsWith(authority)).toBe(true);
          expect(target.slice(authority.length)).toBe(url);
          expect(url.startsWith('/') && !url.startsWith('//')).toBe(true);
          expect(target).not.toMatch(/[\r\n]/);
        },
      ),
      { numRuns: CASES },
    );
  });

  it('classifies any request target for the admin split without throwing', () => {
    const roles = new PortRoles();
    roles.setAdminPorts(true);
    fc.assert(
      fc.property(fc.oneof(path, fc.string({ maxLength: 60 })), (url) => {
        const req = { url, socket: {} } as unknown as IncomingMessage;
        expect(typeof roles.servesConsole(req)).toBe('boolean');
        expect(roles.servesPlayback(req)).toBe(true);
      }),
      { numRuns: CASES },
    );
  });
});
