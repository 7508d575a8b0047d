import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConfigStore } from '../config/store.js';
import type { LiveView } from '../live/live-view.js';
import type { Access } from './auth.js';
import { ConfigStale } from '../config/errors.js';
import { HttpError } from './errors.js';
import { redactSecrets } from './redact.js';

/** Handlers of the config calls (spec 000 §7). Thin: parse, call the store, answer. */
export function configHandlers(
  store: ConfigStore,
  view: LiveView,
  access: (request: FastifyRequest) => Access | undefined,
) {
  const textBody = (request: FastifyRequest): string => {
    // An empty text/plain body reaches here as nothing: the store says why empty text is refused.
    if (request.body === undefined || request.body === null) return '';
    if (typeof request.body !== 'string')
      throw new HttpError(400, 'the body must be the config text (text/plain)');
    return request.body;
  };
  return {
    /** The live view: config, each item's stats and the server's stats. */
    readConfig: async (request: FastifyRequest, reply: FastifyReply) => {
      const data = access(request) === 'edit' ? view.snapshot : redactSecrets(view.snapshot);
      await reply.header('cache-control', 'no-store').send({ ...data, now_ms: Date.now() });
    },
    modifyConfig: async (request: FastifyRequest) => {
      await store.modify(request.body);
      return { ok: true };
    },
    /** The file's text, with its revision as the ETag (save_raw_config's If-Match). */
    readRawConfig: async (_request: FastifyRequest, reply: FastifyReply) => {
      await reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('etag', etagOf(store.revision))
        .send(store.rawText);
    },
    /** Checks text without saving: 200 with the config it describes, or 400 with line and column. */
    parseRawConfig: async (request: FastifyRequest) => {
      const { config } = store.parse(textBody(request));
      return { ok: true, config };
    },
    /**
     * Saves the text. With If-Match (the ETag read_raw_config gave), refused 409 when the file
     * changed since; without it the text is saved as before (scripts written for the old API).
     */
    saveRawConfig: async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        await store.saveRaw(textBody(request), ifMatchOf(request.headers['if-match']));
      } catch (error) {
        if (error instanceof ConfigStale) throw new HttpError(409, error.message);
        throw error;
      }
      return reply.header('etag', etagOf(store.revision)).send({ ok: true });
    },
  };
}

const etagOf = (revision: string) => `"${revision}"`;

/** The revisions an If-Match header names; undefined when absent or `*` (any revision will do). */
function ifMatchOf(header: string | undefined): string[] | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  return header
    .split(',')
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    )
    .filter((tag) => tag !== '');
}
