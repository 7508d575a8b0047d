import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@sluice/api';
import {
  type Access,
  accessFor,
  type Credentials,
  parseBasic,
  parseCookies,
  SESSION_COOKIE,
  type SessionRegistry,
} from './auth.js';
import { type CredentialCheck, tooManyFailures } from './credential-check.js';
import { crossOriginReason } from './origin-check.js';

/** The header the console sends on every call; another site's page can't add it without CORS. */
export const CONSOLE_HEADER = 'x-requested-with';
export const CONSOLE_HEADER_VALUE = 'sluice';

export type OnRequestHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export interface Guard {
  /** The access the route's guard granted this request (undefined on public routes). */
  access(request: FastifyRequest): Access | undefined;
  /**
   * An onRequest hook, so credentials are checked before any body is read (issue 13: a 60 MB body
   * was parsed first): 401 without good credentials, 403 for a view login on an edit call or a
   * request from another site's page, 429 while failed logins are backing off.
   * `queryAuth` accepts `?auth=base64(login:password)`: the events websocket only (spec 000 §7).
   */
  require(needed: Access, options?: { queryAuth?: boolean }): OnRequestHook;
  /** The Origin check alone, for the public login and logout forms. */
  sameOrigin: OnRequestHook;
  /**
   * Whether the credentials a granted request came with still give the access it was granted: a
   * long-lived events socket is closed once its session ends or its password changes. Counts no
   * failure (a changed password is not a guess).
   */
  stillGranted(request: FastifyRequest): boolean;
}

type Caller = { access: Access; cookie: boolean } | { refused: 401 | 429; retryAfterS?: number };

const isUpgrade = (request: FastifyRequest) => request.headers.upgrade?.toLowerCase() === 'websocket';

/**
 * A call that changes something: not a GET (nor HEAD), or an edit call made with GET
 * (stream_switch_source). Websocket upgrades can't carry headers; their Origin is checked instead.
 */
const changesState = (request: FastifyRequest, needed: Access) =>
  !isUpgrade(request) && (needed === 'edit' || (request.method !== 'GET' && request.method !== 'HEAD'));

export function createGuard(config: () => Config, sessions: SessionRegistry, check: CredentialCheck): Guard {
  const granted = new WeakMap<FastifyRequest, Access>();

  const fromCredentials = (request: FastifyRequest, credentials: Credentials, via: string): Caller => {
    const result = check(request.ip, credentials, via);
    if ('access' in result) return { access: result.access, cookie: false };
    return result.refused === 'wait' ? { refused: 429, retryAfterS: result.retryAfterS } : { refused: 401 };
  };

  const identify = (request: FastifyRequest, queryAuth: boolean): Caller => {
    const basic = parseBasic(request.headers.authorization);
    if (basic) return fromCredentials(request, basic, 'basic auth');
    const session = sessions.lookup(parseCookies(request.headers.cookie)[SESSION_COOKIE], config());
    if (session) return { access: session, cookie: true };
    // Browsers can't set headers on a websocket; spec 000 §7 lets its URL carry the credentials.
    const query = request.query as Record<string, unknown> | undefined;
    if (queryAuth && isUpgrade(request) && typeof query?.auth === 'string') {
      const credentials = parseBasic(`Basic ${query.auth}`);
      if (credentials) return fromCredentials(request, credentials, 'websocket');
    }
    return { refused: 401 };
  };

  const refuseCrossOrigin = async (request: FastifyRequest, reply: FastifyReply) => {
    const reason = crossOriginReason(request);
    if (reason) return reply.status(403).send({ error: reason });
  };

  const stillGranted = (request: FastifyRequest): boolean => {
    const was = granted.get(request);
    if (!was) return false;
    const basic = parseBasic(request.headers.authorization);
    const query = request.query as Record<string, unknown> | undefined;
    const credentials =
      basic ?? (typeof query?.auth === 'string' ? parseBasic(`Basic ${query.auth}`) : undefined);
    const now = credentials
      ? accessFor(config(), credentials)
      : sessions.lookup(parseCookies(request.headers.cookie)[SESSION_COOKIE], config());
    return now === was;
  };

  return {
    access: (request) => granted.get(request),
    stillGranted,
    sameOrigin: refuseCrossOrigin,
    require:
      (needed, options = {}) =>
      async (request, reply) => {
        const reason = crossOriginReason(request);
        if (reason) return reply.status(403).send({ error: reason });
        const caller = identify(request, options.queryAuth === true);
        if ('refused' in caller) {
          // No WWW-Authenticate challenge: the browser's own login dialog would hide the console's form.
          if (caller.refused === 429) {
            return reply
              .status(429)
              .header('retry-after', String(caller.retryAfterS))
              .send({ error: tooManyFailures(caller.retryAfterS ?? 1) });
          }
          return reply.status(401).send({ error: 'credentials are missing or wrong' });
        }
        if (needed === 'edit' && caller.access === 'view') {
          return reply.status(403).send({ error: 'these credentials may only read' });
        }
        if (caller.cookie && changesState(request, needed)) {
          const header = request.headers[CONSOLE_HEADER];
          if (header !== CONSOLE_HEADER_VALUE) {
            return reply.status(403).send({
              error: `a call made with the session cookie must carry the header X-Requested-With: ${CONSOLE_HEADER_VALUE}`,
            });
          }
        }
        granted.set(request, caller.access);
      },
  };
}
