import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConfigStore } from '../config/store.js';
import type { LiveView } from '../live/live-view.js';
import type { Access } from './auth.js';
import { ConfigStale } from '../config/errors.js';
import { importedConfig, summarizeImport } from '../config/import-preview.js';
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
      await reply
        .header('cache-control', 'no-store')
        .header('etag', etagOf(store.revision))
        .send({ ...data, now_ms: Date.now() });
    },
    /**
     * Applies the delta. With If-Match (a revision from read_config's config_revision or ETag, or
     * an events socket's), refused 409 when an item this delta changes was changed since; without
     * it the delta is applied as before (Flussonic's API has no revision).
     */
    modifyConfig: async (request: FastifyRequest, reply: FastifyReply) => {
      await staleAs409(() => store.modify(request.body, ifMatchOf(request.headers['if-match'])));
      return reply.header('etag', etagOf(store.revision)).send({ ok: true, revision: store.revision });
    },
    /** Upload config's confirmation: what importing this body would change, by name; nothing is saved. */
    previewImport: async (request: FastifyRequest) => ({
      ok: true,
      summary: summarizeImport(store.config, importedConfig(request.body)),
    }),
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
      await staleAs409(() => store.saveRaw(textBody(request), ifMatchOf(request.headers['if-match'])));
      return reply.header('etag', etagOf(store.revision)).send({ ok: true, revision: store.revision });
    },
  };
}

const etagOf = (revision: string) => `"${revision}"`;

async function staleAs409(save: () => Promise<unknown>): Promise<void> {
  try {
    await save();
  } catch (error) {
    if (error instanceof ConfigStale) throw new HttpError(409, error.message);
    throw error;
  }
}

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
