import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookies, SESSION_COOKIE, type SessionRegistry } from './auth.js';
import { type CredentialCheck, tooManyFailures } from './credential-check.js';
import { HttpError } from './errors.js';
import { cameOverTls } from './transport-security.js';

/** POST /admin/login (form-encoded login, password) and POST /admin/logout. */
export function loginHandlers(sessions: SessionRegistry, check: CredentialCheck) {
  // SameSite=Strict: the cookie never rides on a request another site starts; HttpOnly: no script
  // reads it; Secure when the login came over TLS, so the browser never sends it over plain HTTP
  // (a console reached over plain HTTP can't have it: it would never come back).
  const cookie = (request: FastifyRequest, value: string, maxAge: number) =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${cameOverTls(request.raw) ? '; Secure' : ''}`;
  return {
    login: async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as Record<string, unknown> | undefined;
      const login = body?.login;
      const password = body?.password;
      if (typeof login !== 'string' || typeof password !== 'string') {
        throw new HttpError(400, 'the form must carry login and password');
      }
      const result = check(request.ip, { login, password }, 'login form');
      if ('refused' in result) {
        if (result.refused === 'wait') {
          await reply
            .status(429)
            .header('retry-after', String(result.retryAfterS))
            .send({ error: tooManyFailures(result.retryAfterS) });
          return;
        }
        // Spec 000 §8: the console shows "Invalid login/password" for a 403.
        await reply.status(403).send({ error: 'Invalid login/password' });
        return;
      }
      const id = sessions.create({ login, password }, result.access);
      await reply
        .header('set-cookie', cookie(request, id, 12 * 3600))
        .send({ ok: true, access: result.access });
    },
    /** Ends the session on the server too, so a copied cookie is worth nothing after logout. */
    logout: async (request: FastifyRequest, reply: FastifyReply) => {
      sessions.delete(parseCookies(request.headers.cookie)[SESSION_COOKIE]);
      await reply.header('set-cookie', cookie(request, '', 0)).send({ ok: true });
    },
  };
}
