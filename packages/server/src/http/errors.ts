import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ConfigRejected } from '../config/errors.js';

/** An error the client caused: answered with its status and message, logged at debug only. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Every failure answers `{error: "<what was wrong>"}` (plus line/column for config text). */
export function errorHandler(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error instanceof ConfigRejected) {
    void reply.status(400).send({ error: error.message, line: error.line, column: error.column });
    return;
  }
  if (error instanceof HttpError) {
    void reply.status(error.statusCode).send({ error: error.message });
    return;
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    void reply.status(status).send({ error: 'internal server error; the details are in the server log' });
    return;
  }
  // Fastify's own 4xx (bad JSON, body too large, unsupported type) carry a clear message already.
  const message = error.message.replace(
    /^Body cannot be empty when content-type is set to 'application\/json'$/,
    'the body is empty',
  );
  void reply.status(status).send({ error: message });
}
