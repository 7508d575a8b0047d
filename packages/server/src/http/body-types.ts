import type { FastifyReply, FastifyRequest } from 'fastify';

const mediaType = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/**
 * An onRequest hook refusing (415) bodies of other types than `accepted`, before they are read. A
 * form or text/plain body is what another site's page can send without asking (CSRF, issue 13):
 * JSON calls take JSON only.
 */
function bodyOf(accepted: readonly string[], what: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasBody(request) || accepted.includes(mediaType(request))) return;
    const given = mediaType(request) || 'no content-type';
    return reply.status(415).send({ error: `this call takes ${what} (${accepted[0]}), not ${given}` });
  };
}

export const jsonOnly = bodyOf(['application/json'], 'a JSON body');
/** Config text and session ids: protected from other sites by the Origin check and the console's header. */
export const textOnly = bodyOf(['text/plain', 'application/octet-stream'], 'a text body');
