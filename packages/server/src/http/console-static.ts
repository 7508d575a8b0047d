import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built console under /admin. Any /admin path that is not a file gets index.html, so deep
 * links such as /admin/standalone/foo load the app, which then routes itself.
 */
export async function registerConsole(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const index = distDir ? join(distDir, 'index.html') : undefined;
  if (!distDir || !index || !existsSync(index)) {
    app.get('/admin', async (_req, reply) => reply.status(503).type('text/plain').send(notBuilt));
    app.get('/admin/*', async (_req, reply) => reply.status(503).type('text/plain').send(notBuilt));
    return;
  }
  const html = await readFile(index);
  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  await app.register(fastifyStatic, { root: distDir, prefix: '/admin/', wildcard: false, index: false });
  app.get('/admin', async (_req, reply) => sendIndex(reply));
  app.get('/admin/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    // Hashed build assets are served by the static plugin; a missing asset is a 404, not the app.
    if (rest.startsWith('assets/')) return reply.status(404).send({ error: 'no such file' });
    return sendIndex(reply);
  });
}

const notBuilt = 'The console is not built: run `npm start` (it builds what is stale) or `npm run build`.\n';
