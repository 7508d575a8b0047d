import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { jsonOnly } from '../http/body-types.js';
import type { Logger } from '../support/log.js';
import { type Bundle, type BundleSources, buildBundle } from './bundle.js';
import type { SshTunnel } from './ssh-tunnel.js';
import { UploadFailed, uploadBundle } from './support-upload.js';

const API = '/flussonic/api';
/** Spec 002 §5: the comment must be longer than 3 characters. */
const COMMENT_MIN_CHARS = 4;
const COMMENT_MAX_CHARS = 10_000;
/** Where the console downloads the last bundle made (no support_url, or an upload that failed). */
export const BUNDLE_DOWNLOAD_PATH = `${API}/sendlogs/bundle`;

export interface SupportDeps {
  sources: BundleSources;
  supportUrl: () => string | undefined;
  tunnel: SshTunnel;
  log: Logger;
  /** Edit access: the bundle holds the config (secrets hidden) and the logs. */
  edit: onRequestHookHandler;
}

/**
 * POST sendlogs (spec 002 §7): builds the bundle and sends it to `support_url`, answering the ticket;
 * with no URL the bundle is kept and the answer says where to download it; a failed upload answers
 * 502 and keeps the bundle too. The SSH agent calls drive the support tunnel (ssh-tunnel.ts).
 */
export function registerSupport(app: FastifyInstance, deps: SupportDeps): void {
  // The last bundle made: one, so a stream of requests can't pile them up.
  let kept: Bundle | undefined;

  app.post(
    `${API}/sendlogs`,
    { onRequest: [deps.edit, jsonOnly], bodyLimit: 64 * 1024 },
    async (request, reply) => {
      const comment = (request.body as { comment?: unknown } | undefined)?.comment;
      if (typeof comment !== 'string' || comment.trim().length < COMMENT_MIN_CHARS)
        return reply.status(400).send({ error: 'Description required (more than 3 characters)' });
      if (comment.length > COMMENT_MAX_CHARS)
        return reply
          .status(400)
          .send({ error: `the comment is longer than ${COMMENT_MAX_CHARS} characters` });
      const bundle = await buildBundle(deps.sources, comment);
      kept = bundle;
      const url = deps.supportUrl();
      if (!url) {
        deps.log.notice(`sendlogs: no support_url set, bundle ${bundle.name} kept for download`);
        return { ticket: null, bundle: bundle.name, download: BUNDLE_DOWNLOAD_PATH };
      }
      try {
        const ticket = await uploadBundle(url, bundle, comment);
        deps.log.notice(`sendlogs: bundle ${bundle.name} sent, ticket ${ticket}`);
        return { ticket, bundle: bundle.name };
      } catch (error) {
        if (!(error instanceof UploadFailed)) throw error;
        deps.log.error(`sendlogs: upload to support_url failed: ${error.message}; bundle kept for download`);
        return reply.status(502).send({
          error: `upload failed: ${error.message}`,
          bundle: bundle.name,
          download: BUNDLE_DOWNLOAD_PATH,
        });
      }
    },
  );

  app.get(BUNDLE_DOWNLOAD_PATH, { onRequest: deps.edit }, async (_request, reply) => {
    if (!kept) return reply.status(404).send({ error: 'no diagnostics bundle was made yet' });
    return reply
      .type('application/gzip')
      .header('content-disposition', `attachment; filename="${kept.name}"`)
      .header('cache-control', 'no-store')
      .send(kept.bytes);
  });

  // The spec's three SSH agent calls; each answers the tunnel's status ({state, host, remote_port, reason}).
  app.get(`${API}/ssh_agent_enabled`, { onRequest: deps.edit }, async () => deps.tunnel.statusWithKey());
  app.post(`${API}/enable_ssh_agent`, { onRequest: deps.edit }, async () => deps.tunnel.enable());
  app.post(`${API}/disable_ssh_agent`, { onRequest: deps.edit }, async () => deps.tunnel.disable());
}
