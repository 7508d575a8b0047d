import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@sluice/api';
import {
  type Access,
  accessFor,
  parseBasic,
  parseCookies,
  SESSION_COOKIE,
  type SessionRegistry,
} from './auth.js';

export interface Guard {
  /** Resolves the caller's access from Basic auth, the session cookie or (websocket only) `?auth=`. */
  access(request: FastifyRequest): Access | undefined;
  /** A preHandler that answers 401 unless the caller has `needed`. */
  require(needed: Access): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

export function createGuard(config: () => Config, sessions: SessionRegistry): Guard {
  const access = (request: FastifyRequest): Access | undefined => {
    const basic = parseBasic(request.headers.authorization);
    if (basic) return accessFor(config(), basic);
    const session = sessions.lookup(parseCookies(request.headers.cookie)[SESSION_COOKIE], config());
    if (session) return session;
    // Browsers can't set headers on a websocket: the console passes base64(login:password) in `auth`.
    const query = request.query as Record<string, unknown> | undefined;
    if (typeof query?.auth === 'string') return accessFor(config(), parseBasic(`Basic ${query.auth}`));
    return undefined;
  };
  return {
    access,
    require: (needed) => async (request, reply) => {
      const granted = access(request);
      if (granted === 'edit' || (granted === 'view' && needed === 'view')) return;
      // No WWW-Authenticate challenge: the browser's own login dialog would hide the console's form.
      await reply
        .status(granted ? 403 : 401)
        .send({ error: granted ? 'these credentials may only read' : 'credentials are missing or wrong' });
    },
  };
}
