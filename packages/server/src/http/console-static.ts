import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { pickEncoding, PRECOMPRESSED, type Precompressed } from './accept-encoding.js';

/**
 * Hashed build files (assets/index-CES3Tkuk.js) never change under their name: a browser keeps
 * them a year without asking. Everything else is asked about each time (ETag answers 304).
 */
const HASHED_CACHE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const isHashed = (path: string) => /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.(br|gz))?$/.test(basename(path));

/**
 * Serves the built console under /admin. Any /admin path that is not a file gets index.html, so deep
 * links such as /admin/standalone/foo load the app, which then routes itself. The build writes a
 * brotli and a gzip copy of each text file (vite-precompress.ts): the one the browser takes is sent
 * as it is, with Vary: Accept-Encoding so that caches keep the variants apart.
 */
export async function registerConsole(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const index = distDir ? join(distDir, 'index.html') : undefined;
  if (!distDir || !index || !existsSync(index)) {
    app.get('/admin', async (_req, reply) => reply.status(503).type('text/plain').send(notBuilt));
    app.get('/admin/*', async (_req, reply) => reply.status(503).type('text/plain').send(notBuilt));
    return;
  }
  const sendIndex = await indexSender(index);
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/admin/',
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (response, path) => {
      response.setHeader('vary', 'Accept-Encoding');
      response.setHeader('cache-control', isHashed(path) ? HASHED_CACHE : REVALIDATE);
    },
  });
  app.get('/admin', async (request, reply) => sendIndex(request, reply));
  app.get('/admin/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    // Hashed build assets are served by the static plugin; a missing asset is a 404, not the app.
    if (rest.startsWith('assets/')) return reply.status(404).send({ error: 'no such file' });
    return sendIndex(request, reply);
  });
}

/** index.html and its precompressed copies, read once; never cached long, it names the current assets. */
async function indexSender(index: string) {
  const plain = await readFile(index);
  const variants = new Map<Precompressed, Buffer>();
  for (const coding of PRECOMPRESSED) {
    const path = `${index}.${coding === 'br' ? 'br' : 'gz'}`;
    if (existsSync(path)) variants.set(coding, await readFile(path));
  }
  return (request: FastifyRequest, reply: FastifyReply) => {
    const coding = pickEncoding(request.headers['accept-encoding'], [...variants.keys()]);
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', REVALIDATE)
      .header('vary', 'Accept-Encoding');
    if (coding) reply.header('content-encoding', coding);
    return reply.send(coding ? variants.get(coding) : plain);
  };
}

const notBuilt = 'The console is not built: run `npm start` (it builds what is stale) or `npm run build`.\n';
