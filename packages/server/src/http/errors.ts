import { dirname } from 'node:path';
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

/**
 * Every failure answers `{error: "<what was wrong>"}` (plus line/column for config text). Every
 * 5xx is written to the server log with its stack, since its answer says the details are there.
 */
export function createErrorHandler(logError: (line: string) => void) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void => {
    if (error instanceof ConfigRejected) {
      void reply.status(400).send({ error: error.message, line: error.line, column: error.column });
      return;
    }
    const where = `${request.method} ${request.url.split('?')[0]}`;
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) logError(`${where} answered ${error.statusCode}: ${error.message}`);
      void reply.status(error.statusCode).send({ error: error.message });
      return;
    }
    const disk = diskFailure(error, request);
    if (disk) {
      logError(`${where} answered ${disk.status}: ${error.stack ?? error.message}`);
      void reply.status(disk.status).send({ error: disk.message });
      return;
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      logError(`${where} answered ${status}: ${error.stack ?? error.message}`);
      void reply.status(status).send({ error: 'internal server error; the details are in the server log' });
      return;
    }
    void reply.status(status).send({ error: clientMessage(error, request) });
  };
}

/** Fastify's own 4xx (bad JSON, body too large, unsupported type) reworded where they say too little. */
function clientMessage(error: FastifyError | Error, request: FastifyRequest): string {
  const code = 'code' in error ? error.code : undefined;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return `the body is larger than the ${formatBytes(request.routeOptions.bodyLimit)} this call accepts`;
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'the body is empty';
  return error.message;
}

/**
 * A write that failed because of the disk, not the request: said plainly, so the operator knows
 * to free space or fix the folder rather than retry. Nothing was changed (the store swaps the
 * running config only after the file is written).
 */
export function diskFailure(
  error: Error,
  request: Pick<FastifyRequest, 'url'>,
): { status: number; message: string } | undefined {
  const { code, path } = error as NodeJS.ErrnoException;
  const what = /\/(modify_config|save_raw_config)\b/.test(request.url)
    ? 'the config was not saved'
    : 'nothing was saved';
  const folder = path ? ` (${dirname(path)})` : '';
  if (code === 'ENOSPC' || code === 'EDQUOT') return { status: 507, message: `the disk is full: ${what}` };
  if (code === 'EROFS')
    return { status: 500, message: `the folder${folder} is on a read-only disk: ${what}` };
  if (code === 'EACCES' || code === 'EPERM')
    return { status: 500, message: `the server may not write to the folder${folder}: ${what}` };
  return undefined;
}

/** "8 MiB", "256 KiB", "4 KiB": a limit as an operator reads it in a message. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
