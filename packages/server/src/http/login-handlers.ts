import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@sluice/api';
import { accessFor, parseCookies, SESSION_COOKIE, type SessionRegistry } from './auth.js';
import { HttpError } from './errors.js';

/** POST /admin/login (form-encoded login, password) and POST /admin/logout. */
export function loginHandlers(config: () => Config, sessions: SessionRegistry, secureCookies: boolean) {
  const cookie = (value: string, maxAge: number) =>
    `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secureCookies ? '; Secure' : ''}`;
  return {
    login: async (request: FastifyRequest, reply: FastifyReply) => {
      const body = request.body as Record<string, unknown> | undefined;
      const login = body?.login;
      const password = body?.password;
      if (typeof login !== 'string' || typeof password !== 'string') {
        throw new HttpError(400, 'the form must carry login and password');
      }
      const access = accessFor(config(), { login, password });
      if (!access) {
        await reply.status(403).send({ error: 'Invalid login/password' });
        return;
      }
      const id = sessions.create(login, access);
      await reply.header('set-cookie', cookie(id, 12 * 3600)).send({ ok: true, access });
    },
    logout: async (request: FastifyRequest, reply: FastifyReply) => {
      sessions.delete(parseCookies(request.headers.cookie)[SESSION_COOKIE]);
      await reply.header('set-cookie', cookie('', 0)).send({ ok: true });
    },
  };
}
