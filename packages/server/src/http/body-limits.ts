import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * Body caps per route (bytes). A body over its route's cap is answered 413 as soon as its
 * Content-Length shows it (or, for a chunked body, as soon as the cap is passed), before any of it
 * is parsed: a large body can't hold the event loop or the heap.
 */
export const BODY_LIMIT_BYTES = {
  /**
   * modify_config, parse_raw_config and save_raw_config. A 20,000-stream config (bench/config.mjs)
   * is 1.8 MB as text and 2.2 MB as JSON (read_config); 8 MiB leaves room for streams carrying
   * several times as many options.
   */
  config: 8 * 1024 * 1024,
  /** error/store: the console sends at most 10 reports of about 9 KB a minute (web/src/api/error-report.ts). */
  errorReport: 256 * 1024,
  /** close_sessions: a list of session ids. */
  sessionIds: 1024 * 1024,
  /** /admin/login: a login and a password. */
  login: 4 * 1024,
  /** Every other call. */
  other: 1024 * 1024,
} as const;

/**
 * JSON nested deeper than this is refused 400 before it is parsed: the config is at most about
 * 8 levels deep, and the code that walks a parsed body (merge, validation, serialising) recurses,
 * so 100,000 nested brackets would end in a stack overflow.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text opens more than `max` arrays or objects inside each other. One pass over the
 * characters, skipping strings (an escaped quote does not end one); the text need not be valid JSON.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Replaces Fastify's application/json parser with one that refuses deep nesting first, then hands
 * the text to Fastify's own parser (which keeps its __proto__ / constructor poisoning protection).
 */
export function acceptJsonWithDepthLimit(app: FastifyInstance): void {
  const defaultParser = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'ignore',
  );
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new HttpError(400, `the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    defaultParser(request, text, done);
  });
}
