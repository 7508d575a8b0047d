import type { FastifyInstance } from 'fastify';
import { jsonOnly } from '../http/body-types.js';
import type { OnRequestHook } from '../http/guard.js';
import { HttpError } from '../http/errors.js';
import { CHALLENGE_PATH } from './challenges.js';
import { BadDomains } from './domains.js';
import { type LetsEncrypt, OrderFailed, OrderInProgress } from './letsencrypt.js';

/**
 * Spec 000 §7 lists the call at the root (`/letsencrypt`, like `/admin/login`), which the console
 * uses; it is also answered under the API prefix with the other calls.
 */
export const LETSENCRYPT_PATHS = ['/letsencrypt', '/flussonic/api/letsencrypt'];
const PATHS = LETSENCRYPT_PATHS;
/** A few hundred names at most: far more than a certificate may carry (MAX_DOMAINS). */
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * GET /letsencrypt (view or edit callers): the certificate in use and its files. POST (edit only)
 * with `{"domains": [...]}` orders one and answers the same once it is installed: 400 for bad
 * names, 409 while another order runs, 502 with the CA's reason when the order failed (the old
 * certificate stays in use). The HTTP-01 answers are public (the CA has no credentials) and hold
 * only tokens of the order in progress.
 */
export function registerLetsEncrypt(
  app: FastifyInstance,
  deps: { letsencrypt: LetsEncrypt; view: OnRequestHook; edit: OnRequestHook },
): void {
  const le = deps.letsencrypt;
  for (const path of PATHS) registerCalls(app, path, deps);
  app.get(`${CHALLENGE_PATH}/:token`, async (request, reply) => {
    const answer = le.challenges.get((request.params as { token: string }).token);
    if (answer === undefined) return reply.status(404).send({ error: 'no such challenge' });
    return reply.type('text/plain').send(answer);
  });
}

function registerCalls(
  app: FastifyInstance,
  path: string,
  deps: { letsencrypt: LetsEncrypt; view: OnRequestHook; edit: OnRequestHook },
): void {
  const le = deps.letsencrypt;
  app.get(path, { onRequest: deps.view }, async () => le.status());
  app.post(path, { onRequest: [deps.edit, jsonOnly], bodyLimit: BODY_LIMIT_BYTES }, async (request) => {
    const body = request.body as { domains?: unknown } | undefined;
    try {
      return await le.issue(body?.domains);
    } catch (error) {
      if (error instanceof BadDomains) throw new HttpError(400, error.message);
      if (error instanceof OrderInProgress) throw new HttpError(409, error.message);
      if (error instanceof OrderFailed) throw new HttpError(502, error.message);
      throw error;
    }
  });
}
